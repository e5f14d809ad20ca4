-- Domain purchase: a paid name that is not registered is refunded (issue 14 item 5; builds on
-- 20261122005700_domain_purchase.sql).
--
-- When the registrar refuses a paid name, or the name became someone's branded domain between
-- checkout and registration, the name is failed with its reason and owes the customer what its
-- order item charged (refund_amount). The worker (domain-purchase /process) claims such names,
-- refunds that amount on the order's first invoice through the billing adapter (a partial
-- Stripe refund, idempotent per name), records it here (app.record_domain_refund) and lowers
-- the order's yearly subscription to the names still alive, so a renewal never charges for a
-- failed name. An order whose every name was refunded is refunded (51); the order item carries
-- the amount given back and why.

alter table public.purchased_domains
  -- What a paid name that was not registered owes back (its order item's amount); null when
  -- nothing was paid for it.
  add column refund_amount bigint check (refund_amount >= 0),
  add column refund_id text check (char_length(refund_id) <= 255),
  add column refunded_at timestamptz;

alter table public.order_items
  add column refunded_amount bigint not null default 0 check (refunded_amount >= 0),
  add column refund_reason text check (char_length(refund_reason) <= 500);

drop index public.purchased_domains_work_idx;
create index purchased_domains_work_idx on public.purchased_domains (updated_at)
  where status in ('registering', 'renewing')
    or (status = 'renewal_failed' and owner_notified_at is null)
    or (status = 'failed' and refund_amount > 0 and refunded_at is null);

-- Names a worker has to act on (claim_domain_work and the cron kick share it).
create function app.domain_work_due(p_row public.purchased_domains) returns boolean
language sql immutable
set search_path = ''
as $$
  select p_row.status in ('registering', 'renewing')
    or (p_row.status = 'renewal_failed' and p_row.owner_notified_at is null)
    or (p_row.status = 'failed' and p_row.refund_amount > 0 and p_row.refunded_at is null)
$$;

-- The yearly price of the order's names still alive (the renewal subscription's price): a
-- failed or cancelled name is not renewed, so it is not charged.
create or replace function app.domain_order_renewal_amount(p_order uuid) returns bigint
language sql stable security definer
set search_path = ''
as $$
  select coalesce(sum(t.price_amount), 0)::bigint
  from public.purchased_domains d
  cross join lateral (
    select p.price_amount from public.tld_prices p
    where d.domain::text = p.tld or d.domain::text like '%.' || p.tld
    order by char_length(p.tld) desc limit 1
  ) t
  where d.order_id = p_order and d.status not in ('failed', 'cancelled')
$$;

-- Why a paid name may not become the buyer's branded domain now (null: it may). Asked by the
-- worker before it registers, and again when it records the registration.
create function app.domain_registration_blocked(p_domain text) returns text
language sql stable security definer
set search_path = ''
as $$
  select case
    when app.is_domain_banned(p_domain) then
      p_domain || ' is banned and cannot be registered.'
    when exists (select 1 from public.domains d where d.domain = p_domain) then
      p_domain || ' was added as a branded domain by another account before its registration.'
  end
$$;

-- A registration's outcome (20261122005700), now with the refund a failure owes and with the
-- name taken meanwhile failing the row instead of raising (which left it to be retried for
-- ever). Returns registered, failed, or taken (registered at the registrar, but the name was
-- added as a branded domain meanwhile: failed and refunded too; the worker drops the zone).
create or replace function app.finish_domain_registration(p_id uuid, p_ok boolean,
  p_expires timestamptz, p_problem text, p_zone_id text, p_nameservers text[], p_token text,
  p_verified boolean)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
  v_domain uuid;
  v_problem text := p_problem;
  v_result text := case when p_ok then 'registered' else 'failed' end;
begin
  select * into v_row from public.purchased_domains where id = p_id for update;
  if not found or v_row.status <> 'registering' then
    return 'stale';
  end if;
  if p_ok then
    v_problem := app.domain_registration_blocked(v_row.domain);
    if v_problem is null then
      begin
        insert into public.domains (domain, kind, account_id, verification_token,
          verification_status, verified_at)
        values (v_row.domain, 'branded', v_row.account_id, p_token,
          case when p_verified then 'verified' else 'pending' end,
          case when p_verified then now() end)
        returning id into v_domain;
      exception when unique_violation or sqlstate 'PT422' then
        -- Added by another account in the same instant (the index or the name rules had the
        -- last word).
        v_problem := coalesce(app.domain_registration_blocked(v_row.domain),
          v_row.domain || ' could not be added as your branded domain.');
      end;
    end if;
    if v_problem is not null then
      v_result := 'taken';
    end if;
  end if;
  if v_result = 'registered' then
    insert into public.dns_zones (zone_id, name, status, nameservers, account_id)
    values (p_zone_id, v_row.domain, 'active', coalesce(p_nameservers, '{}'), v_row.account_id)
    on conflict (name) do update set zone_id = excluded.zone_id, status = 'active',
      nameservers = excluded.nameservers, account_id = excluded.account_id;
    update public.purchased_domains set status = 'registered', domain_id = v_domain,
      expires_at = p_expires, problem = null, locked_until = null
    where id = p_id;
  else
    update public.purchased_domains d set status = 'failed', locked_until = null,
      problem = left(coalesce(v_problem, 'The registrar refused the registration.'), 500),
      refund_amount = nullif((select coalesce(sum(i.amount), 0) from public.order_items i
        where i.order_id = d.order_id and i.kind = 'domain'
          and i.description = d.domain::text), 0)
    where id = p_id;
  end if;
  perform app.settle_domain_order(v_row.order_id);
  return v_result;
end;
$$;

-- The order's first invoice (the one that paid its names) and what a failed name gets back.
create function app.domain_refund_target(p_id uuid)
returns table (invoice_id text, amount bigint, currency text, reason text)
language sql stable security definer
set search_path = ''
as $$
  select (select i.billing_id from public.invoices i
      where i.order_id = d.order_id and i.billing_type = 1 and i.status in ('paid', 'refunded')
      order by i.created_at limit 1),
    d.refund_amount, o.currency::text, d.problem
  from public.purchased_domains d
  join public.orders o on o.id = d.order_id
  where d.id = p_id and d.status = 'failed' and d.refund_amount > 0 and d.refunded_at is null
$$;

-- The refund went through: the name and its order item say so; an order with every name
-- refunded is refunded (51).
create function app.record_domain_refund(p_id uuid, p_refund_id text) returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
begin
  update public.purchased_domains set refunded_at = now(), refund_id = p_refund_id,
    locked_until = null
  where id = p_id and status = 'failed' and refunded_at is null and refund_amount > 0
  returning * into v_row;
  if not found then
    return 'stale';
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

-- The worker's queue (20261122005700) with the refunds due; a refund is claimed as 'refund'.
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
    case when l.status = 'failed' then 'refund' else l.status end,
    l.billing_subscription_id, l.renewal_order_id, a.owner_id, u.email::text
  from locked l
  join public.accounts a on a.id = l.account_id
  left join auth.users u on u.id = a.owner_id
$$;

create or replace function app.kick_domain_purchases() returns bigint
language plpgsql security definer
set search_path = ''
as $$
declare
  v_settings app.domain_verification_settings;
begin
  select * into v_settings from app.domain_verification_settings;
  if v_settings.verify_url is null or not exists (
    select 1 from public.purchased_domains d
    where app.domain_work_due(d) and (d.locked_until is null or d.locked_until < now())
  ) then
    return null;
  end if;
  return net.http_post(
    url => regexp_replace(v_settings.verify_url, 'domain-verify$', 'domain-purchase/process'),
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json',
      'Authorization', 'Bearer ' || v_settings.verify_key),
    timeout_milliseconds => 60000);
end;
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.domain_registration_blocked(text),
  app.domain_refund_target(uuid), app.record_domain_refund(uuid, text)
  to service_role;
