-- Clicks and their hourly rollups.
--
-- Raw clicks are append-only and partitioned by month on `time` (UTC month bounds), with a
-- default partition catching anything no monthly partition covers yet; the partitions live in
-- schema click_partitions, which the API does not expose. Analytics are served from the rollups:
-- per link per hour (totals and per-dimension breakdowns) and the same per account, all
-- maintained set-based by app.rollup_clicks(from, to), which rebuilds whole hours and so can be
-- rerun over any window.
--
-- Click tables carry no foreign keys: a check per inserted row would slow the redirector's
-- writes and the rollups' bulk inserts. Statement triggers remove a deleted link's or account's
-- clicks and rollups instead.

create schema click_partitions;
revoke all on schema click_partitions from public;
comment on schema click_partitions is 'Monthly partitions of public.clicks; not exposed.';

create table public.clicks (
  time timestamptz not null,
  alias_id uuid not null,
  -- The link's account, copied so per-account reads need no join; null for guests' links.
  account_id uuid,
  country text check (country ~ '^[A-Z]{2}$'),
  device text check (device in ('desktop', 'mobile', 'tablet', 'other')),
  browser text check (char_length(browser) between 1 and 50),
  os text check (char_length(os) between 1 and 50),
  referrer_host text check (char_length(referrer_host) between 1 and 255),
  is_bot boolean not null default false,
  is_qr boolean not null default false,
  -- SHA-256 of the visitor's IP with a rotating salt: counts unique visitors, identifies nobody.
  ip_hash bytea check (octet_length(ip_hash) = 32)
) partition by range (time);
comment on table public.clicks is 'One row per redirect, partitioned by month (UTC).';

create index clicks_alias_id_time_idx on public.clicks (alias_id, time);
create index clicks_time_brin_idx on public.clicks using brin (time);

create table click_partitions.clicks_default partition of public.clicks default;

-- Creates the monthly partitions from p_from's month to p_months_ahead months after the current
-- one. Rows already caught by the default partition for a new month move into it first (a
-- partition cannot be attached while the default holds rows of its range).
create function app.ensure_click_partitions(
  p_from timestamptz default now() - interval '1 month',
  p_months_ahead integer default 3
) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_month timestamptz := date_trunc('month', p_from, 'UTC');
  v_last timestamptz := date_trunc('month', now(), 'UTC')
    + make_interval(months => greatest(p_months_ahead, 0));
  v_next timestamptz;
  v_name text;
  v_created integer := 0;
begin
  if p_from is null or p_months_ahead is null or p_months_ahead > 120 then
    raise exception 'ensure_click_partitions: give a start and 0 to 120 months ahead'
      using errcode = '22023';
  end if;
  while v_month <= v_last loop
    v_next := v_month + interval '1 month';
    v_name := 'clicks_' || to_char(v_month at time zone 'UTC', 'YYYY_MM');
    if to_regclass('click_partitions.' || v_name) is null then
      execute format(
        'create table click_partitions.%I (like public.clicks including defaults including constraints)',
        v_name);
      execute format(
        'with moved as (delete from click_partitions.clicks_default where time >= %L and time < %L returning *)
         insert into click_partitions.%I select * from moved',
        v_month, v_next, v_name);
      execute format(
        'alter table public.clicks attach partition click_partitions.%I for values from (%L) to (%L)',
        v_name, v_month, v_next);
      v_created := v_created + 1;
    end if;
    v_month := v_next;
  end loop;
  return v_created;
end;
$$;

select app.ensure_click_partitions(now() - interval '2 months', 3);

-- ---------------------------------------------------------------------------------------------
-- Rollups: one row per link per UTC hour and one per account per UTC hour, each with the click
-- counts and the per-dimension breakdowns as maps from value to count ('' for unknown: no
-- country, a direct visit without referrer…). Breakdowns count human clicks only (bots are
-- counted in bot_clicks and nowhere else), so each map sums to clicks - bot_clicks.
--
-- Maps rather than a row per (hour, dimension, value): at a few clicks per link per hour, such
-- rows outnumber the clicks themselves several times over, while a map keeps one row per hour
-- and a 30-day breakdown reads at most 720 of them.

create table public.click_stats_hourly (
  alias_id uuid not null,
  hour timestamptz not null,
  account_id uuid,
  clicks integer not null check (clicks >= 0),
  bot_clicks integer not null check (bot_clicks between 0 and clicks),
  qr_clicks integer not null check (qr_clicks between 0 and clicks),
  countries jsonb not null default '{}' check (jsonb_typeof(countries) = 'object'),
  devices jsonb not null default '{}' check (jsonb_typeof(devices) = 'object'),
  browsers jsonb not null default '{}' check (jsonb_typeof(browsers) = 'object'),
  oses jsonb not null default '{}' check (jsonb_typeof(oses) = 'object'),
  referrers jsonb not null default '{}' check (jsonb_typeof(referrers) = 'object'),
  primary key (alias_id, hour)
);
comment on table public.click_stats_hourly is
  'Clicks per link per UTC hour; the maps count human clicks by value.';
create index click_stats_hourly_hour_idx on public.click_stats_hourly (hour);

create table public.account_click_stats_hourly (
  account_id uuid not null,
  hour timestamptz not null,
  clicks integer not null check (clicks >= 0),
  bot_clicks integer not null check (bot_clicks between 0 and clicks),
  qr_clicks integer not null check (qr_clicks between 0 and clicks),
  countries jsonb not null default '{}' check (jsonb_typeof(countries) = 'object'),
  devices jsonb not null default '{}' check (jsonb_typeof(devices) = 'object'),
  browsers jsonb not null default '{}' check (jsonb_typeof(browsers) = 'object'),
  oses jsonb not null default '{}' check (jsonb_typeof(oses) = 'object'),
  referrers jsonb not null default '{}' check (jsonb_typeof(referrers) = 'object'),
  primary key (account_id, hour)
);
comment on table public.account_click_stats_hourly is
  'Clicks per account per UTC hour (all its links); the maps count human clicks by value.';
create index account_click_stats_hourly_hour_idx on public.account_click_stats_hourly (hour);

-- Rebuilds the rollups of the UTC hours overlapping [p_from, p_to): deletes those hours and
-- aggregates the raw clicks again, so running it twice over a window changes nothing. One pass
-- over the clicks (grouping sets) yields the totals and the five breakdowns per link and per
-- account; the maps are then folded from those groups.
create function app.rollup_clicks(p_from timestamptz, p_to timestamptz) returns jsonb
language plpgsql security definer
set search_path = ''
-- The window's groups are hashed in memory; with the default 4MB the planner sorts on disk.
set work_mem = '128MB'
as $$
declare
  v_from timestamptz := date_bin('1 hour', p_from, timestamptz '2000-01-01 00:00:00+00');
  v_to timestamptz := date_bin('1 hour', p_to, timestamptz '2000-01-01 00:00:00+00');
  v_links bigint;
  v_accounts bigint;
begin
  if p_from is null or p_to is null or p_to <= p_from then
    raise exception 'rollup_clicks: the window must end after it starts' using errcode = '22023';
  end if;
  if v_to < p_to then
    v_to := v_to + interval '1 hour';
  end if;
  -- Overlapping runs would each delete and then insert the same hours.
  perform pg_advisory_xact_lock(hashtext('app.rollup_clicks'));

  delete from public.click_stats_hourly where hour >= v_from and hour < v_to;
  delete from public.account_click_stats_hourly where hour >= v_from and hour < v_to;

  with grouped as (
    select c.alias_id, c.account_id,
      date_bin('1 hour', c.time, timestamptz '2000-01-01 00:00:00+00') as hour,
      -- One bit per column left out of the grouping set: alias_id 32, country 16, device 8,
      -- browser 4, os 2, referrer_host 1. Link sets keep alias_id; account sets leave it out.
      -- The low five bits say which breakdown a row is: 31 the totals, 15 a country, 23 a
      -- device, 27 a browser, 29 an operating system, 30 a referrer.
      grouping(c.alias_id, c.country, c.device, c.browser, c.os, c.referrer_host) as left_out,
      coalesce(case grouping(c.alias_id, c.country, c.device, c.browser, c.os, c.referrer_host) & 31
        when 15 then c.country when 23 then c.device when 27 then c.browser when 29 then c.os
        when 30 then c.referrer_host end, '') as value,
      count(*) as clicks, count(*) filter (where c.is_bot) as bot_clicks,
      count(*) filter (where c.is_qr) as qr_clicks, count(*) filter (where not c.is_bot) as humans
    from public.clicks c
    where c.time >= v_from and c.time < v_to
    group by grouping sets (
      (c.alias_id, c.account_id, hour),
      (c.alias_id, c.account_id, hour, c.country), (c.alias_id, c.account_id, hour, c.device),
      (c.alias_id, c.account_id, hour, c.browser), (c.alias_id, c.account_id, hour, c.os),
      (c.alias_id, c.account_id, hour, c.referrer_host),
      (c.account_id, hour),
      (c.account_id, hour, c.country), (c.account_id, hour, c.device), (c.account_id, hour, c.browser),
      (c.account_id, hour, c.os), (c.account_id, hour, c.referrer_host)
    )
  ),
  -- Per link (left_out < 32) or per account (>= 32): the totals row and the five maps.
  folded as (
    select g.left_out >= 32 as per_account, g.alias_id, g.account_id, g.hour,
      sum(g.clicks) filter (where g.left_out & 31 = 31) as clicks,
      sum(g.bot_clicks) filter (where g.left_out & 31 = 31) as bot_clicks,
      sum(g.qr_clicks) filter (where g.left_out & 31 = 31) as qr_clicks,
      jsonb_object_agg(g.value, g.humans) filter (where g.left_out & 31 = 15 and g.humans > 0)
        as countries,
      jsonb_object_agg(g.value, g.humans) filter (where g.left_out & 31 = 23 and g.humans > 0)
        as devices,
      jsonb_object_agg(g.value, g.humans) filter (where g.left_out & 31 = 27 and g.humans > 0)
        as browsers,
      jsonb_object_agg(g.value, g.humans) filter (where g.left_out & 31 = 29 and g.humans > 0)
        as oses,
      jsonb_object_agg(g.value, g.humans) filter (where g.left_out & 31 = 30 and g.humans > 0)
        as referrers
    from grouped g
    group by 1, 2, 3, 4
  ),
  links as (
    insert into public.click_stats_hourly (alias_id, hour, account_id, clicks, bot_clicks,
      qr_clicks, countries, devices, browsers, oses, referrers)
    select f.alias_id, f.hour, f.account_id, f.clicks, f.bot_clicks, f.qr_clicks,
      coalesce(f.countries, '{}'), coalesce(f.devices, '{}'), coalesce(f.browsers, '{}'),
      coalesce(f.oses, '{}'), coalesce(f.referrers, '{}')
    from folded f where not f.per_account
    returning 1
  ),
  accounts as (
    insert into public.account_click_stats_hourly (account_id, hour, clicks, bot_clicks,
      qr_clicks, countries, devices, browsers, oses, referrers)
    select f.account_id, f.hour, f.clicks, f.bot_clicks, f.qr_clicks,
      coalesce(f.countries, '{}'), coalesce(f.devices, '{}'), coalesce(f.browsers, '{}'),
      coalesce(f.oses, '{}'), coalesce(f.referrers, '{}')
    from folded f where f.per_account and f.account_id is not null
    returning 1
  )
  select (select count(*) from links), (select count(*) from accounts) into v_links, v_accounts;

  return jsonb_build_object('from', v_from, 'to', v_to, 'link_hours', v_links,
    'account_hours', v_accounts);
end;
$$;

-- What a scheduler calls every few minutes: the current and the previous hour.
create function app.rollup_recent_clicks() returns jsonb
language sql security definer
set search_path = ''
as $$
  select app.rollup_clicks(now() - interval '1 hour', now())
$$;

-- The redirector and analytics run as the service role; nobody else writes clicks or rollups.
grant execute on function app.ensure_click_partitions(timestamptz, integer),
  app.rollup_clicks(timestamptz, timestamptz), app.rollup_recent_clicks() to service_role;

-- ---------------------------------------------------------------------------------------------
-- Cleaning up after deleted links and accounts (in place of foreign keys, see the top).

create function app.delete_alias_clicks() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.clicks where alias_id in (select id from deleted_aliases);
  delete from public.click_stats_hourly where alias_id in (select id from deleted_aliases);
  return null;
end;
$$;

create trigger aliases_delete_clicks after delete on public.aliases
  referencing old table as deleted_aliases
  for each statement execute function app.delete_alias_clicks();

create function app.delete_account_click_rollups() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.account_click_stats_hourly where account_id in (select id from deleted_accounts);
  return null;
end;
$$;

create trigger accounts_delete_click_rollups after delete on public.accounts
  referencing old table as deleted_accounts
  for each statement execute function app.delete_account_click_rollups();

-- ---------------------------------------------------------------------------------------------
-- Row-level security: readers of an account read its statistics; raw clicks (the logs) need
-- the download_logs feature too. Supervisors read the statistics of links made in their
-- organization. Staff read everything.

alter table public.clicks enable row level security;
alter table public.click_stats_hourly enable row level security;
alter table public.account_click_stats_hourly enable row level security;

create policy "Members with download logs can read their accounts' clicks" on public.clicks
  for select to authenticated
  using (account_id in (select app.accounts_with_permission_and_feature('links.read', 'download_logs')));

create policy "Staff can read every click" on public.clicks
  for select to authenticated
  using ((select app.is_staff()));

create policy "Members can read their links' hourly stats" on public.click_stats_hourly
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Supervisors can read hourly stats of links made in their organization" on public.click_stats_hourly
  for select to authenticated
  using (alias_id in (select app.supervised_alias_ids()));

create policy "Staff can read every link's hourly stats" on public.click_stats_hourly
  for select to authenticated
  using ((select app.is_staff()));

create policy "Members can read their accounts' hourly stats" on public.account_click_stats_hourly
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Staff can read every account's hourly stats" on public.account_click_stats_hourly
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.clicks, public.click_stats_hourly, public.account_click_stats_hourly
  from anon;
revoke insert, update, delete, truncate, references, trigger on public.clicks,
  public.click_stats_hourly, public.account_click_stats_hourly from authenticated;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
