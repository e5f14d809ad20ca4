-- A domain purchase order refunded in full stops charging for its names (builds on
-- 20261122005700_domain_purchase.sql, 20261122006500_domain_purchase_refunds.sql and
-- 20261122007210_domain_renewal_refunds.sql).
--
-- Staff refund a whole paid order from the kiosk (Stripe: at once; Paddle: once Paddle approves
-- the adjustment), and a refund made at the provider reaches the order through its invoice; both
-- end with the order refunded (51). The customer then has their money back, so the order's
-- yearly subscription must never bill its names again, and a name not registered yet must not
-- be bought for them. The order turning 51 is the one place every such path meets, so a trigger
-- there marks the names; the provider call needs HTTP, so the domain-purchase worker does it
-- from its queue (app.claim_domain_work answers 'stop_renewal'), retried like its other work
-- until the provider has answered.
--
-- * A registered name stays registered and stays the account's branded domain: it was paid for
--   its term and costs us nothing more; it lapses at its expiry because nothing renews it.
-- * A name still registering is cancelled here, so the worker never registers it (its
--   app.finish_domain_registration answers 'stale' for a row that is no longer registering).
-- * A failed name whose own refund was still due owes nothing any more: the full refund already
--   paid its order item back, and the worker refunding it too would give it back twice.
-- * A renewal order (purchase_source 'domain-renewal') has no names of its own
--   (purchased_domains.order_id is the purchase): refunding it refunds that year only and
--   changes nothing here.

alter table public.purchased_domains
  -- due: the name's order was refunded in full and its renewal subscription is still to be
  -- cancelled at the provider; done: the provider has it cancelled.
  add column renewal_stop text check (renewal_stop in ('due', 'done'));

create or replace function app.domain_work_due(p_row public.purchased_domains) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_row.status in ('registering', 'renewing')
    or (p_row.status = 'renewal_failed' and p_row.owner_notified_at is null)
    or (p_row.status in ('failed', 'renewal_failed') and p_row.refund_amount > 0
      and p_row.refunded_at is null)
    or p_row.renewal_stop = 'due'
$$;

drop index public.purchased_domains_work_idx;
create index purchased_domains_work_idx on public.purchased_domains (updated_at)
  where status in ('registering', 'renewing')
    or (status = 'renewal_failed' and owner_notified_at is null)
    or (status in ('failed', 'renewal_failed') and refund_amount > 0 and refunded_at is null)
    or renewal_stop = 'due';

create function app.stop_refunded_domain_order() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.purchased_domains d set
    status = case when d.status in ('pending', 'registering') then 'cancelled' else d.status end,
    problem = case
      when d.status in ('pending', 'registering') then
        'The order was refunded before ' || d.domain::text
          || ' was registered: it is not registered.'
      when d.status = 'registered' then
        'The order was refunded: ' || d.domain::text || ' is not renewed'
          || coalesce(' and expires on '
            || to_char(d.expires_at at time zone 'UTC', 'YYYY-MM-DD'), '') || '.'
      else d.problem end,
    renewal_stop = 'due'
  where d.order_id = new.id and d.status not in ('failed', 'cancelled')
    and d.renewal_stop is null;
  update public.purchased_domains d set refund_amount = null
  where d.order_id = new.id and d.status = 'failed' and d.refunded_at is null
    and d.refund_amount > 0;
  return null;
end;
$$;

create trigger orders_refunded_domain_order after update of status on public.orders
  for each row when (new.status = 51 and old.status is distinct from 51)
  execute function app.stop_refunded_domain_order();

-- The worker's queue (20261122007210): stopping a refunded order's renewal comes first, so a
-- name renewing when its order was refunded is not left billed while the registrar is asked.
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
    case
      when l.renewal_stop = 'due' then 'stop_renewal'
      when app.domain_refund_due(l) then 'refund'
      else l.status end,
    l.billing_subscription_id, l.renewal_order_id, a.owner_id, u.email::text
  from locked l
  join public.accounts a on a.id = l.account_id
  left join auth.users u on u.id = a.owner_id
$$;

-- The provider has the refunded order's subscription cancelled (or it was already).
create function app.domain_renewal_stopped(p_id uuid) returns text
language sql security definer
set search_path = ''
as $$
  update public.purchased_domains set renewal_stop = 'done', locked_until = null
  where id = p_id and renewal_stop = 'due'
  returning 'stopped'
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.domain_renewal_stopped(uuid) to service_role;
