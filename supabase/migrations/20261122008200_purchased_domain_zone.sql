-- The DNS zone the domain-purchase worker makes for a name is kept with the name from the moment
-- it exists (builds on 20261122007900_refunded_domain_orders.sql and
-- 20261122008000_domain_registered_after_refund.sql).
--
-- The worker makes the zone before it asks the registrar, and a registrar that cannot be reached
-- leaves the name for a later attempt. That attempt must use the same zone: the provider refuses
-- a second zone for the name (Cloudflare: 1061 "already exists"), and the registrar's
-- idempotency key answers a retry after a lost answer with the first registration, made with the
-- first zone's name servers. So the zone's id is stored on the row (and the zone listed in
-- public.dns_zones, where staff see every zone of our DNS account and the sandbox provider finds
-- it) before the registrar is asked.
--
-- A name that ends without being registered (refused, taken meanwhile, or cancelled because its
-- order was refunded) still holding a zone owes its removal: app.claim_domain_work answers
-- 'remove_zone' for it, after its renewal stop and refund, retried until the provider has
-- removed it.

alter table public.purchased_domains
  -- The provider's id of the zone made for the name; on a failed or cancelled name, a zone still
  -- to be removed.
  add column zone_id text check (char_length(zone_id) between 1 and 100);

create or replace function app.domain_work_due(p_row public.purchased_domains) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select p_row.status in ('registering', 'renewing')
    or (p_row.status = 'renewal_failed' and p_row.owner_notified_at is null)
    or (p_row.status in ('failed', 'renewal_failed') and p_row.refund_amount > 0
      and p_row.refunded_at is null)
    or p_row.renewal_stop = 'due'
    or (p_row.status in ('failed', 'cancelled') and p_row.zone_id is not null)
$$;

drop index public.purchased_domains_work_idx;
create index purchased_domains_work_idx on public.purchased_domains (updated_at)
  where status in ('registering', 'renewing')
    or (status = 'renewal_failed' and owner_notified_at is null)
    or (status in ('failed', 'renewal_failed') and refund_amount > 0 and refunded_at is null)
    or renewal_stop = 'due'
    or (status in ('failed', 'cancelled') and zone_id is not null);

-- The worker's queue (20261122007900), now with the name's zone: a zone left behind goes last.
drop function app.claim_domain_work(integer);
create function app.claim_domain_work(p_limit integer)
returns table (id uuid, account_id uuid, order_id uuid, domain text, years integer,
  status text, billing_subscription_id text, renewal_order_id uuid, owner_id uuid,
  owner_email text, zone_id text)
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
      when l.status in ('failed', 'cancelled') and l.zone_id is not null then 'remove_zone'
      else l.status end,
    l.billing_subscription_id, l.renewal_order_id, a.owner_id, u.email::text, l.zone_id
  from locked l
  join public.accounts a on a.id = l.account_id
  left join auth.users u on u.id = a.owner_id
$$;

-- The zone the provider made for a registering name: on the row and in public.dns_zones (still
-- pending; app.finish_domain_registration makes it active). 'stale' when the name is no longer
-- registering (refunded meanwhile): the worker removes the zone again.
create function app.record_domain_zone(p_id uuid, p_zone_id text, p_nameservers text[])
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row public.purchased_domains;
begin
  update public.purchased_domains set zone_id = p_zone_id
  where id = p_id and status = 'registering'
  returning * into v_row;
  if not found then
    return 'stale';
  end if;
  -- A row of the name's earlier zone (one the provider no longer had) is replaced.
  insert into public.dns_zones (zone_id, name, status, nameservers, account_id)
  values (p_zone_id, v_row.domain, 'pending', coalesce(p_nameservers, '{}'), v_row.account_id)
  on conflict (name) do update set zone_id = excluded.zone_id, status = 'pending',
    nameservers = excluded.nameservers, account_id = excluded.account_id;
  return 'recorded';
end;
$$;

-- The provider removed the zone of a name that was not registered: the row owes nothing more,
-- and the zone leaves public.dns_zones. Its hold ends, so any other work of the row comes next.
create function app.domain_zone_removed(p_id uuid, p_zone_id text) returns text
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.purchased_domains set zone_id = null, locked_until = null
  where id = p_id and zone_id = p_zone_id and status in ('failed', 'cancelled');
  if not found then
    return 'stale';
  end if;
  delete from public.dns_zones where zone_id = p_zone_id;
  return 'removed';
end;
$$;

revoke execute on all functions in schema app from public;
grant execute on function app.claim_domain_work(integer),
  app.record_domain_zone(uuid, text, text[]), app.domain_zone_removed(uuid, text)
  to service_role;
