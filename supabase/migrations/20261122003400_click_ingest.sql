-- Click ingest at a fraction of the cost (issue 17, item 6). app.record_clicks of migration
-- 002900 spent most of its time on the plan limits and usage counters, not on the clicks:
--
-- - app.account_limit ran six times per counter row (the CTE that called it was inlined into
--   each of its readers), and each call planned app.account_price_id afresh (a SQL function
--   with `set search_path` is neither inlined nor cached), whose plan then read every default
--   subscription of every account (the account's and its organization's ids came from a CTE,
--   so the index on subscriptions (account_id, type) was used for `type` only). A batch over
--   250 accounts cost about a millisecond of Postgres CPU per click;
-- - every counter row was created if missing, locked FOR UPDATE, then updated, each a separate
--   pass; each update ran app.protect_columns twice, which copied the old and new rows to JSON
--   before asking whether the caller was even an API user;
-- - the batch came as a JSON array of objects, which Postgres reads with a hash table per
--   object: reading it cost more than storing the clicks.
--
-- Now the limits of all of a batch's accounts are read set-based, once per batch
-- (app.account_limits, on which app.account_limit is built, so the rule stays in one place),
-- through a cached plpgsql plan that uses the index; the max_redirects counters are counted by
-- one atomic upsert (no FOR UPDATE), whose row locks then keep any other batch of the same
-- accounts waiting until commit, so the max_trackable_clicks counters are read and written
-- without a lock of their own; app.protect_columns returns before its JSON copies for callers
-- it does not judge; and the redirector sends one array per column (the JSON form stays, as a
-- thin reader into the same function). What is counted, stored and answered is unchanged.
--
-- Left as they were: the clicks table's two indexes. The btree on (alias_id, time) serves every
-- per-link read of raw clicks (the open hours of link_analytics, route_breakdown over a whole
-- period, link_click_count, click_log_csv); the BRIN on time serves the per-account reads and
-- rollup_clicks, and costs next to nothing per insert (new pages are not summarized on insert).

-- ---------------------------------------------------------------------------------------------
-- 1. Plan limits, set-based.

-- The price each account's plan comes from (app.account_price_id's rule, for many accounts at
-- once): its current default subscription; for a team inside an organization without one, the
-- organization's; otherwise the free plan's price. One row per element of p_account_ids.
create function app.account_price_ids(p_account_ids uuid[])
returns table (account_id uuid, price_id uuid)
-- plpgsql rather than sql: its plan is prepared once per connection, not planned per call. A
-- generic plan always: one custom to the array's length would be planned afresh on every call
-- (the generic one is no dearer, every lookup being by key), which costs ten times the query.
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
    select a.id, coalesce(own.price_id, organization.price_id, free.id)
    from unnest(p_account_ids) as a(id)
    left join lateral (
      select s.price_id
      from public.subscriptions s
      where s.account_id = a.id and s.type = 'default' and s.price_id is not null
        and (s.period_starts_at is null or s.period_starts_at <= now())
        and (s.ends_at is null or s.ends_at > now())
      order by s.created_at desc
      limit 1
    ) as own on true
    left join lateral (
      select s.price_id
      from public.teams t
      join public.organizations o on o.id = t.organization_id
      join public.subscriptions s on s.account_id = o.account_id
      where own.price_id is null and t.account_id = a.id
        and s.type = 'default' and s.price_id is not null
        and (s.period_starts_at is null or s.period_starts_at <= now())
        and (s.ends_at is null or s.ends_at > now())
      order by s.created_at desc
      limit 1
    ) as organization on true
    left join (
      select pp.id
      from public.plans p join public.plan_prices pp on pp.plan_id = p.id
      where p.name = 'free' and pp.active
      order by pp."interval" = 'yearly' desc
      limit 1
    ) as free on true;
end;
$$;

create or replace function app.account_price_id(p_account_id uuid) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select p.price_id from app.account_price_ids(array[p_account_id]) as p);
end;
$$;

-- A count option for many accounts at once (app.account_limit's rule): the limit staff set for
-- the account, else its plan's; null is unlimited. One row per element of p_account_ids.
create function app.account_limits(p_account_ids uuid[], p_option text)
returns table (account_id uuid, value bigint)
-- Generic plan always, as app.account_price_ids.
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  if p_option is null or not p_option = any (app.plan_count_options()) then
    raise exception 'unknown limit option "%"', p_option using errcode = '22023';
  end if;
  -- Subqueries rather than joins: a lookup by key per account whatever the array's size (a
  -- generic plan cannot know it, and a join would hash the whole of account_usage).
  return query
    select p.account_id, coalesce(
      (select u."limit" from public.account_usage u
        where u.account_id = p.account_id and u.name = p_option),
      (select (pp.options ->> p_option)::bigint from public.plan_prices pp
        where pp.id = p.price_id))
    from app.account_price_ids(p_account_ids) as p;
end;
$$;

create or replace function app.account_limit(p_account_id uuid, p_option text) returns bigint
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select l.value from app.account_limits(array[p_account_id], p_option) as l);
end;
$$;

revoke execute on function app.account_price_ids(uuid[]), app.account_limits(uuid[], text)
  from public;
grant execute on function app.account_price_ids(uuid[]), app.account_limits(uuid[], text)
  to service_role;

-- ---------------------------------------------------------------------------------------------
-- 2. app.protect_columns of migration 000100, judging only API callers before copying rows.

create or replace function app.protect_columns() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_column text;
  v_old jsonb;
  v_new jsonb;
begin
  if current_user not in ('authenticated', 'anon') then
    return new;
  end if;
  if tg_argv[0] = 'staff' and app.is_staff() then
    return new;
  end if;
  v_old := to_jsonb(old);
  v_new := to_jsonb(new);
  foreach v_column in array tg_argv[1:] loop
    if (v_old -> v_column) is distinct from (v_new -> v_column) then
      raise exception using
        errcode = 'PT403',
        message = 'protected_column',
        detail = format('%s cannot be changed.', v_column),
        hint = v_column;
    end if;
  end loop;
  return new;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. Recording clicks.

-- One batch from the redirector, one array per column (element i of each is click i): what
-- app.record_clicks(json) of migration 002900 did with the same clicks as a JSON array, which
-- cost more to read than to store (a hash table per JSON object). Same rules: the account comes
-- from the link itself; clicks without a time or of links deleted meanwhile are dropped, a
-- route that is not the link's is forgotten, values outside the columns' rules are cleared
-- rather than failing the whole batch; counts the redirects and trackable clicks per account
-- and month, stores the clicks that fit the trackable-click limit (one insert), and answers per
-- account whether it may still redirect.
create function app.record_clicks(
  p_times timestamptz[],
  p_alias_ids uuid[],
  p_route_ids uuid[],
  p_countries text[],
  p_devices text[],
  p_browsers text[],
  p_oses text[],
  p_referrer_hosts text[],
  p_is_bot boolean[],
  p_is_qr boolean[],
  -- SHA-256 of the visitor's address with the salt, 64 hex characters.
  p_ip_hashes text[]
)
returns table (account_id uuid, redirects_blocked boolean)
language plpgsql volatile security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_month timestamptz := app.usage_month();
  v_length integer := cardinality(p_times);
  -- The batch once read, column by column: the clicks kept, with their links' accounts.
  v_times timestamptz[];
  v_alias_ids uuid[];
  v_click_accounts uuid[];
  v_countries text[];
  v_devices text[];
  v_browsers text[];
  v_oses text[];
  v_referrer_hosts text[];
  v_is_bot boolean[];
  v_is_qr boolean[];
  v_ip_hashes bytea[];
  v_route_ids uuid[];
  v_first timestamptz;
  -- Per account of the batch, in account order: its clicks, limits, and what it is answered.
  v_accounts uuid[];
  v_counts bigint[];
  v_redirect_limits bigint[];
  v_track_limits bigint[];
  v_blocked boolean[];
  v_tracked bigint[];
  v_all_tracked boolean := true;
  v_overage_accounts uuid[];
  v_overages bigint[];
  v_rolled_until timestamptz;
  v_late_to timestamptz;
begin
  if (select bool_or(n is null) or count(distinct n) > 1
      from unnest(array[v_length, cardinality(p_alias_ids), cardinality(p_route_ids),
        cardinality(p_countries), cardinality(p_devices), cardinality(p_browsers),
        cardinality(p_oses), cardinality(p_referrer_hosts), cardinality(p_is_bot),
        cardinality(p_is_qr), cardinality(p_ip_hashes)]) as n) then
    raise exception 'record_clicks: expected one array per column, all of the same length'
      using errcode = '22023';
  end if;
  if v_length = 0 then
    return;
  end if;
  perform pg_advisory_xact_lock_shared(app.click_rollup_lock_key());

  select array_agg(c.time), array_agg(c.alias_id), array_agg(a.account_id),
    array_agg(case when c.country ~ '^[A-Z]{2}$' then c.country end),
    array_agg(case when c.device in ('desktop', 'mobile', 'tablet', 'other') then c.device
      else 'other' end),
    array_agg(nullif(left(c.browser, 50), '')), array_agg(nullif(left(c.os, 50), '')),
    array_agg(nullif(left(lower(c.referrer_host), 255), '')),
    array_agg(coalesce(c.is_bot, false)), array_agg(coalesce(c.is_qr, false)),
    -- Not ~ '^[0-9a-f]{64}$': a counted repetition that long costs the regex engine dearly.
    array_agg(case when length(c.ip_hash) = 64 and c.ip_hash !~ '[^0-9a-f]'
      then decode(c.ip_hash, 'hex') end),
    array_agg(r.id)
  into v_times, v_alias_ids, v_click_accounts, v_countries, v_devices, v_browsers, v_oses,
    v_referrer_hosts, v_is_bot, v_is_qr, v_ip_hashes, v_route_ids
  from unnest(p_times, p_alias_ids, p_route_ids, p_countries, p_devices, p_browsers, p_oses,
      p_referrer_hosts, p_is_bot, p_is_qr, p_ip_hashes)
    as c(time, alias_id, route_id, country, device, browser, os, referrer_host, is_bot, is_qr,
      ip_hash)
  join public.aliases a on a.id = c.alias_id
  left join public.alias_routes r on r.id = c.route_id and r.alias_id = c.alias_id
  where c.time is not null;
  if v_times is null then
    return;
  end if;

  select min(x.first),
    array_agg(x.account_id order by x.account_id) filter (where x.account_id is not null),
    array_agg(x.n order by x.account_id) filter (where x.account_id is not null)
  into v_first, v_accounts, v_counts
  from (
    select b.account_id, count(*) as n, min(b.time) as first
    from unnest(v_click_accounts, v_times) as b(account_id, time)
    group by b.account_id
  ) as x;

  if v_accounts is not null then
    -- Read before the counters are taken: a limit staff change meanwhile counts from the next
    -- batch on (the redirector learns limits a batch late anyway).
    select array_agg(l.value order by l.account_id) into v_redirect_limits
    from app.account_limits(v_accounts, 'max_redirects') as l;
    select array_agg(l.value order by l.account_id) into v_track_limits
    from app.account_limits(v_accounts, 'max_trackable_clicks') as l;

    -- Redirects: one atomic upsert (`used = used + n` on the newest row version), in account
    -- order so that concurrent batches cannot deadlock. Its row locks are held until commit:
    -- while this batch runs, no other batch counts these accounts.
    with counted as (
      insert into public.account_usage as u (account_id, name, used, period_starts_at)
      select b.account_id, 'max_redirects', b.n, v_month
      from unnest(v_accounts, v_counts) as b(account_id, n)
      order by b.account_id
      on conflict on constraint account_usage_pkey do update
      set used = case when u.period_starts_at is null or u.period_starts_at >= v_month
          then u.used else 0 end + excluded.used,
        period_starts_at = v_month
      returning u.account_id, u.used, u.overage, u.overage_enabled
    ),
    judged as (
      select c.account_id, c.overage,
        l.value is not null and not c.overage_enabled and c.used >= l.value as blocked,
        case when l.value is null then 0 else greatest(c.used - l.value, 0) end as new_overage
      from counted c
      join unnest(v_accounts, v_redirect_limits) as l(account_id, value)
        on l.account_id = c.account_id
    )
    select array_agg(j.blocked order by j.account_id),
      array_agg(j.account_id) filter (where j.new_overage <> j.overage),
      array_agg(j.new_overage) filter (where j.new_overage <> j.overage)
    into v_blocked, v_overage_accounts, v_overages
    from judged j;
    -- Only accounts past their limit (or whose limit changed) have an overage to restate.
    if v_overage_accounts is not null then
      update public.account_usage u set overage = o.overage
      from unnest(v_overage_accounts, v_overages) as o(account_id, overage)
      where u.account_id = o.account_id and u.name = 'max_redirects';
    end if;

    -- Trackable clicks: past the limit (without overage) the rest of an account's clicks in the
    -- batch are not stored. Read without FOR UPDATE and written as read: the redirect counters
    -- above keep every other batch of these accounts waiting, and nothing else counts them.
    with current_usage as (
      select b.account_id, b.n, b.value as limit_value,
        coalesce(case when u.period_starts_at is null or u.period_starts_at >= v_month
          then u.used end, 0) as used,
        coalesce(u.overage_enabled, false) as overage_enabled
      from unnest(v_accounts, v_counts, v_track_limits) as b(account_id, n, value)
      left join public.account_usage u
        on u.account_id = b.account_id and u.name = 'max_trackable_clicks'
    ),
    decided as (
      select c.account_id, c.n, c.limit_value, c.used,
        case when c.limit_value is not null and not c.overage_enabled
          then least(c.n, greatest(c.limit_value - c.used, 0)) else c.n end as added
      from current_usage c
    ),
    counted as (
      insert into public.account_usage as u (account_id, name, used, overage, period_starts_at)
      select d.account_id, 'max_trackable_clicks', d.used + d.added,
        case when d.limit_value is null then 0
          else greatest(d.used + d.added - d.limit_value, 0) end,
        v_month
      from decided d
      order by d.account_id
      on conflict on constraint account_usage_pkey do update
      set used = excluded.used, overage = excluded.overage,
        period_starts_at = excluded.period_starts_at
    )
    select array_agg(d.added order by d.account_id), coalesce(bool_and(d.added = d.n), true)
    into v_tracked, v_all_tracked
    from decided d;
  end if;

  if v_all_tracked then
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash, route_id)
    select * from unnest(v_times, v_alias_ids, v_click_accounts, v_countries, v_devices,
      v_browsers, v_oses, v_referrer_hosts, v_is_bot, v_is_qr, v_ip_hashes, v_route_ids);
  else
    -- Some account is past its trackable clicks: only its earliest clicks that fit are kept.
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash, route_id)
    select x.time, x.alias_id, x.account_id, x.country, x.device, x.browser, x.os,
      x.referrer_host, x.is_bot, x.is_qr, x.ip_hash, x.route_id
    from (
      select b.*, row_number() over (partition by b.account_id order by b.time) as rank
      from unnest(v_times, v_alias_ids, v_click_accounts, v_countries, v_devices, v_browsers,
          v_oses, v_referrer_hosts, v_is_bot, v_is_qr, v_ip_hashes, v_route_ids)
        as b(time, alias_id, account_id, country, device, browser, os, referrer_host, is_bot,
          is_qr, ip_hash, route_id)
    ) as x
    left join unnest(v_accounts, v_tracked) as t(account_id, tracked)
      on t.account_id = x.account_id
    where x.account_id is null or x.rank <= t.tracked;
  end if;

  -- A batch from before the mark (a write retried across an hour's end) rebuilds its hours.
  select s.rolled_until into v_rolled_until from app.click_rollup_state s;
  if v_first < v_rolled_until then
    select max(b.time) into v_late_to from unnest(v_times) as b(time) where b.time < v_rolled_until;
    perform app.rollup_clicks(v_first, v_late_to + interval '1 microsecond');
  end if;

  return query
    select b.account_id, b.blocked from unnest(v_accounts, v_blocked) as b(account_id, blocked);
end;
$$;

-- The JSON form of migration 001100 (an array of {"time", "alias_id", "route_id", "country",
-- "device", "browser", "os", "referrer_host", "is_bot", "is_qr", "ip_hash"}), read into the
-- columns above: for SQL callers and tests, and for a redirector of the previous release
-- still running while this one deploys (its batches must not fail).
create or replace function app.record_clicks(p_clicks json)
returns table (account_id uuid, redirects_blocked boolean)
language plpgsql volatile security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_clicks is null or json_typeof(p_clicks) <> 'array' then
    raise exception 'record_clicks: expected a JSON array of clicks' using errcode = '22023';
  end if;
  return query
    select r.account_id, r.redirects_blocked
    from (
      select coalesce(array_agg(c.time), '{}') as times,
        coalesce(array_agg(c.alias_id), '{}') as alias_ids,
        coalesce(array_agg(c.route_id), '{}') as route_ids,
        coalesce(array_agg(c.country), '{}') as countries,
        coalesce(array_agg(c.device), '{}') as devices,
        coalesce(array_agg(c.browser), '{}') as browsers,
        coalesce(array_agg(c.os), '{}') as oses,
        coalesce(array_agg(c.referrer_host), '{}') as referrer_hosts,
        coalesce(array_agg(c.is_bot), '{}') as is_bot,
        coalesce(array_agg(c.is_qr), '{}') as is_qr,
        coalesce(array_agg(c.ip_hash), '{}') as ip_hashes
      from json_to_recordset(p_clicks) as c(time timestamptz, alias_id uuid, route_id uuid,
        country text, device text, browser text, os text, referrer_host text, is_bot boolean,
        is_qr boolean, ip_hash text)
    ) as b
    cross join lateral app.record_clicks(b.times, b.alias_ids, b.route_ids, b.countries,
      b.devices, b.browsers, b.oses, b.referrer_hosts, b.is_bot, b.is_qr, b.ip_hashes) as r;
end;
$$;

-- The redirector (service role, or the database owner) alone records clicks.
revoke execute on function app.record_clicks(timestamptz[], uuid[], uuid[], text[], text[],
  text[], text[], text[], boolean[], boolean[], text[]) from public;
grant execute on function app.record_clicks(timestamptz[], uuid[], uuid[], text[], text[],
  text[], text[], text[], boolean[], boolean[], text[]) to service_role;
