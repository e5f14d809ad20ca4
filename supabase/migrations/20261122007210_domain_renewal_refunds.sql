-- A paid renewal the registrar refuses is refunded (issue 14 item 6; builds on
-- 20261122006500_domain_purchase_refunds.sql and 20261122006800_paddle_domain_refunds.sql).
--
-- The renewal was paid (the name is `renewing` only once its renewal invoice or transaction is
-- paid), so a refusal owes the customer what the renewal charged for the name: its yearly price,
-- at most what is left of the renewal order. The worker refunds it on the renewal's own invoice
-- (a partial Stripe refund, or a Paddle refund adjustment on the renewal transaction), exactly as
-- a refused purchase is refunded, before it tells the owner; the renewal order's line says so,
-- and a renewal order whose every name was refunded is refunded (51). The owner's notification
-- and mail say the payment was refunded, and no longer ask for a new payment method.
--
-- The refund columns of purchased_domains (refund_amount, refund_id, refunded_at) carry the
-- renewal's refund while the name is renewal_failed: a name that was registered never had a
-- purchase refund, and a later renewal paid or refused sets them afresh.

create or replace function app.domain_work_due(p_row public.purchased_domains) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_row.status in ('registering', 'renewing')
    or (p_row.status = 'renewal_failed' and p_row.owner_notified_at is null)
    or (p_row.status in ('failed', 'renewal_failed') and p_row.refund_amount > 0
      and p_row.refunded_at is null)
$$;

drop index public.purchased_domains_work_idx;
create index purchased_domains_work_idx on public.purchased_domains (updated_at)
  where status in ('registering', 'renewing')
    or (status = 'renewal_failed' and owner_notified_at is null)
    or (status in ('failed', 'renewal_failed') and refund_amount > 0 and refunded_at is null);

/** Whether the row's due work is a refund (a refused purchase, or a refused paid renewal). */
create function app.domain_refund_due(p_row public.purchased_domains) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_row.status in ('failed', 'renewal_failed') and p_row.refund_amount > 0
    and p_row.refunded_at is null
$$;

-- The worker's queue (20261122006500): a refund comes before the owner is told.
create or replace function app.claim_domain_work(p_limit integer)
returns table (id uuid, account_id uuid, order_id uuid, domain text, years integer,
  status text, billing_subscription_id text, renewal_order_id uuid, owner_id uuid,
  owner_email text)
language sql security definer
set search_path = ''
as $$
  with picked as (
    select d.id from public.purchased_domains d
    where app.domain_work_due(d)
      and (d.locked_until is null or d.locked_until < now())
    order by d.updated_at
    limit p_limit
    for update skip locked
  ), locked as (
    update public.purchased_domains d
    set locked_until = now() + interval '2 minutes', attempts = d.attempts + 1
    from picked where d.id = picked.id
    returning d.*
  )
  select l.id, l.account_id, l.order_id, l.domain::text, l.years,
    case when app.domain_refund_due(l) then 'refund' else l.status end,
    l.billing_subscription_id, l.renewal_order_id, a.owner_id, u.email::text
  from locked l
  join public.accounts a on a.id = l.account_id
  left join auth.users u on u.id = a.owner_id
$$;

-- A renewal's outcome (20261122005700); a refusal now owes the renewal's price back.
create or replace function app.finish_domain_renewal(p_id uuid, p_ok boolean,
  p_expires timestamptz, p_problem text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
  v_owed bigint;
begin
  select * into v_row from public.purchased_domains where id = p_id for update;
  if not found or v_row.status <> 'renewing' then
    return 'stale';
  end if;
  if p_ok then
    update public.purchased_domains set status = 'registered', expires_at = p_expires,
      problem = null, locked_until = null
    where id = p_id;
    update public.orders o set status = 48 where o.id = v_row.renewal_order_id
      and o.status = 32
      and not exists (select 1 from public.purchased_domains d
        where d.renewal_order_id = o.id and d.status = 'renewing' and d.id <> p_id);
    return 'renewed';
  end if;
  -- What the renewal charged for the name: its yearly price, at most what the renewal order has
  -- left after the refunds of its other names.
  select least(
      (select t.price_amount from public.tld_prices t
       where v_row.domain::text = t.tld or v_row.domain::text like '%.' || t.tld
       order by char_length(t.tld) desc limit 1),
      o.amount - coalesce((select sum(i.refunded_amount) from public.order_items i
        where i.order_id = o.id), 0))
  into v_owed
  from public.orders o
  where o.id = v_row.renewal_order_id and o.status in (32, 48);
  update public.purchased_domains set status = 'renewal_failed', locked_until = null,
    owner_notified_at = null,
    problem = left(coalesce(p_problem, 'The registrar refused the renewal.'), 500),
    refund_amount = nullif(greatest(coalesce(v_owed, 0), 0), 0), refund_id = null,
    refunded_at = null
  where id = p_id;
  -- Its other names done, the order is paid for them (refunded once this one is).
  update public.orders o set status = 48 where o.id = v_row.renewal_order_id
    and o.status = 32
    and exists (select 1 from public.purchased_domains d
      where d.renewal_order_id = o.id and d.status = 'registered')
    and not exists (select 1 from public.purchased_domains d
      where d.renewal_order_id = o.id and d.status = 'renewing');
  return 'renewal_failed';
end;
$$;

-- The invoice a due refund goes back on: the order's first one for a refused purchase, the
-- renewal order's for a refused renewal (`renewal_order_id` then says which).
drop function app.domain_refund_target(uuid);
create function app.domain_refund_target(p_id uuid)
returns table (invoice_id text, amount bigint, currency text, reason text,
  renewal_order_id uuid)
language sql stable security definer
set search_path = ''
as $$
  select (select i.billing_id from public.invoices i
      where i.order_id = o.id and i.billing_type = o.billing_type
        and i.status in ('paid', 'refunded')
      order by i.created_at limit 1),
    d.refund_amount, o.currency::text, d.problem,
    case when d.status = 'renewal_failed' then o.id end
  from public.purchased_domains d
  join public.orders o on o.id = case when d.status = 'renewal_failed'
    then d.renewal_order_id else d.order_id end
  where d.id = p_id and app.domain_refund_due(d)
$$;

-- The refund went through (20261122006500), now for a refused renewal too: its renewal order's
-- line carries the amount and why, the renewal order is refunded (51) once every name of it was,
-- and what the owner is told says the payment came back.
create or replace function app.record_domain_refund(p_id uuid, p_refund_id text) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
begin
  update public.purchased_domains d set refunded_at = now(), refund_id = p_refund_id,
    locked_until = null,
    problem = case when d.status = 'renewal_failed'
      then left(d.problem || ' The renewal payment was refunded.', 500) else d.problem end
  where d.id = p_id and app.domain_refund_due(d)
  returning * into v_row;
  if not found then
    return 'stale';
  end if;
  if v_row.status = 'renewal_failed' then
    update public.order_items i set refunded_amount = i.refunded_amount + v_row.refund_amount,
      refund_reason = v_row.problem
    where i.id = (select i2.id from public.order_items i2
      where i2.order_id = v_row.renewal_order_id and i2.kind = 'domain'
        and i2.description = 'Renewal: ' || v_row.domain::text limit 1);
    update public.orders o set status = 51
    where o.id = v_row.renewal_order_id and o.status in (32, 48)
      and not exists (select 1 from public.purchased_domains d
        where d.renewal_order_id = o.id
          and not (d.status = 'renewal_failed' and d.refunded_at is not null));
    return 'refunded';
  end if;
  update public.order_items i set refunded_amount = i.refunded_amount + v_row.refund_amount,
    refund_reason = v_row.problem
  where i.id = (select i2.id from public.order_items i2 where i2.order_id = v_row.order_id
    and i2.kind = 'domain' and i2.description = v_row.domain::text limit 1);
  update public.orders o set status = 51
  where o.id = v_row.order_id and o.status in (32, 48, 49)
    and not exists (select 1 from public.purchased_domains d
      where d.order_id = o.id and (d.status not in ('failed', 'cancelled')
        or (d.refund_amount > 0 and d.refunded_at is null)));
  return 'refunded';
end;
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.domain_refund_target(uuid) to service_role;
