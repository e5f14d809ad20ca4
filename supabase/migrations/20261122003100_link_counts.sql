-- Link counters for the plan limits. app.check_link_limits counted every link of the account on
-- every create (under the account's lock): for an account with a million links that is a scan of
-- a million rows per link created, which also held up every other create of the account.
--
-- app.link_counts keeps, per account and UTC month of creation, how many links exist, how many
-- of them are on a branded or organization domain, how many have a live status and how many of
-- those have an expiry. Statement triggers on public.aliases keep it exact in the transaction
-- that changes the links, set-based (a bulk insert updates each account-month once), in key
-- order (concurrent statements lock the counters in one order).
--
-- Each account-month is split over 16 rows (shards) by the writing connection, and read as their
-- sum: one row would be locked by every create of the account until its transaction commits,
-- making creates of one account wait for each other even on plans without limits.
--
-- "Active" (live status, not expired) depends on the clock, which no trigger sees: the live
-- count is its upper bound, exact when no live link has an expiry. Only when that bound reaches
-- the limit are the live links with an expiry counted one by one.

create table app.link_counts (
  account_id uuid not null,
  month timestamptz not null,
  shard smallint not null,
  links bigint not null default 0,
  branded bigint not null default 0,
  live bigint not null default 0,
  live_expiring bigint not null default 0,
  -- No check that they stay positive: an upsert checks the row it proposes, which for links
  -- taken away is a negative change; and a shard may count a link out that another counted in.
  primary key (account_id, month, shard)
);

alter table app.link_counts enable row level security;
revoke all on app.link_counts from public, anon, authenticated, service_role;

comment on table app.link_counts is
  'Per account and UTC month of creation: links, those on non-common domains, those with a live '
  'status, and live ones with an expiry. Kept by triggers on public.aliases.';

-- One link counted in (sign 1) or out (sign -1).
create type app.link_count_change as (
  account_id uuid,
  created_at timestamptz,
  domain_id uuid,
  status text,
  expires_at timestamptz,
  sign integer
);

-- PL/pgSQL rather than SQL: its plans are kept for the session instead of made on every call.
create function app.apply_link_count_changes(p_changes app.link_count_change[]) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  insert into app.link_counts as c (account_id, month, shard, links, branded, live,
    live_expiring)
  select x.account_id, date_trunc('month', x.created_at, 'UTC'), pg_backend_pid() % 16,
    sum(x.sign),
    coalesce(sum(x.sign) filter (where d.kind <> 'common'), 0),
    coalesce(sum(x.sign) filter (where app.alias_is_active(x.status)), 0),
    coalesce(sum(x.sign) filter (where app.alias_is_active(x.status)
      and x.expires_at is not null), 0)
  from unnest(p_changes) as x
  -- Domains are never deleted while links use them (on delete restrict).
  join public.domains d on d.id = x.domain_id
  -- Guests' links belong to no account and count for none.
  where x.account_id is not null
  group by 1, 2
  having sum(x.sign) <> 0
    or sum(x.sign) filter (where d.kind <> 'common') <> 0
    or sum(x.sign) filter (where app.alias_is_active(x.status)) <> 0
    or sum(x.sign) filter (where app.alias_is_active(x.status) and x.expires_at is not null) <> 0
  order by 1, 2
  on conflict (account_id, month, shard) do update
    set links = c.links + excluded.links,
        branded = c.branded + excluded.branded,
        live = c.live + excluded.live,
        live_expiring = c.live_expiring + excluded.live_expiring;
  -- A shard left counting nothing (its account's links deleted, the account removed) goes away.
  delete from app.link_counts c
  where c.links = 0 and c.branded = 0 and c.live = 0 and c.live_expiring = 0
    and (c.account_id, c.month) in (
      select distinct x.account_id, date_trunc('month', x.created_at, 'UTC')
      from unnest(p_changes) as x where x.sign < 0);
end;
$$;

create function app.count_links() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- Each branch names only its own transition tables: PL/pgSQL plans a statement when it first
  -- runs it, so the others are never looked up.
  if tg_op = 'INSERT' then
    perform app.apply_link_count_changes(array(
      select row(n.account_id, n.created_at, n.domain_id, n.status, n.expires_at, 1)
        ::app.link_count_change
      from new_links n));
  elsif tg_op = 'DELETE' then
    perform app.apply_link_count_changes(array(
      select row(o.account_id, o.created_at, o.domain_id, o.status, o.expires_at, -1)
        ::app.link_count_change
      from old_links o));
  else
    -- Only the rows whose counted columns changed (an alias renamed counts for nothing).
    perform app.apply_link_count_changes(array(
      select c from old_links o join new_links n on n.id = o.id,
        lateral (values
          (row(o.account_id, o.created_at, o.domain_id, o.status, o.expires_at, -1)
            ::app.link_count_change),
          (row(n.account_id, n.created_at, n.domain_id, n.status, n.expires_at, 1)
            ::app.link_count_change)) as v(c)
      where (o.account_id, o.created_at, o.domain_id, o.status, o.expires_at is null)
        is distinct from (n.account_id, n.created_at, n.domain_id, n.status, n.expires_at is null)));
  end if;
  return null;
end;
$$;

create trigger aliases_count_inserted after insert on public.aliases
  referencing new table as new_links
  for each statement execute function app.count_links();
create trigger aliases_count_updated after update on public.aliases
  referencing old table as old_links new table as new_links
  for each statement execute function app.count_links();
create trigger aliases_count_deleted after delete on public.aliases
  referencing old table as old_links
  for each statement execute function app.count_links();

-- The links there are now.
insert into app.link_counts (account_id, month, shard, links, branded, live, live_expiring)
select a.account_id, date_trunc('month', a.created_at, 'UTC'), 0, count(*),
  count(*) filter (where d.kind <> 'common'),
  count(*) filter (where app.alias_is_active(a.status)),
  count(*) filter (where app.alias_is_active(a.status) and a.expires_at is not null)
from public.aliases a
join public.domains d on d.id = a.domain_id
where a.account_id is not null
group by 1, 2;

-- The limits, judged on the counters (same rules, same lock as before).
create or replace function app.check_link_limits(
  p_account_id uuid, p_branded boolean, p_new boolean
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_active_limit bigint := app.account_limit(p_account_id, 'max_active_aliases');
  v_monthly_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases_per_month') end;
  v_branded_limit bigint := case when p_new and p_branded
    then app.account_limit(p_account_id, 'max_branded_aliases_per_month') end;
  v_total_limit bigint := case when p_new then app.account_limit(p_account_id, 'max_aliases') end;
  v_month_start timestamptz := date_trunc('month', now(), 'UTC');
  v_counts record;
  v_active bigint;
begin
  if v_active_limit is null and v_monthly_limit is null and v_branded_limit is null
    and v_total_limit is null then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('links:' || p_account_id::text, 0));
  if exists (
    select 1 from public.account_usage u
    where u.account_id = p_account_id and u.name = 'max_active_aliases' and u.overage_enabled
  ) then
    v_active_limit := null;
  end if;
  select coalesce(sum(c.links), 0) as total,
    coalesce(sum(c.links) filter (where c.month >= v_month_start), 0) as monthly,
    coalesce(sum(c.branded) filter (where c.month >= v_month_start), 0) as branded,
    coalesce(sum(c.live), 0) as live,
    coalesce(sum(c.live_expiring), 0) as live_expiring
  into v_counts
  from app.link_counts c
  where c.account_id = p_account_id;
  v_active := v_counts.live;
  if v_active >= v_active_limit and v_counts.live_expiring > 0 then
    -- Live links whose expiry has passed are not active.
    select v_counts.live - count(*) into v_active
    from public.aliases a
    where a.account_id = p_account_id
      and app.alias_is_active(a.status)
      and a.expires_at <= now();
  end if;
  if v_active >= v_active_limit or v_counts.monthly >= v_monthly_limit
    or v_counts.branded >= v_branded_limit or v_counts.total >= v_total_limit then
    perform app.link_error('plan_limit_reached');
  end if;
end;
$$;

revoke execute on all functions in schema app from public;
