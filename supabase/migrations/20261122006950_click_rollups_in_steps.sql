-- Click rollups in steps of minutes (issue 17, item 6). Since migration 006900 the per-link reads
-- of raw clicks go by time (the BRIN) over the part of a period the rollups do not hold: its
-- first, partial hour and everything after the rollup mark. The mark moved by whole hours, so
-- that part was on average half an hour of every link's clicks, and a per-link read scanned all
-- of them: its cost grew with the service's click rate, not the link's.
--
-- The mark now moves in steps of a few minutes (app.click_rollup_schedule, one place), and each
-- step is rolled up incrementally: the clicks of [old mark, new mark) are aggregated once and
-- added into the hourly rows (counts summed, maps merged by key), so a click is aggregated once
-- however many steps its hour takes. A rollup row of hour H therefore holds the clicks of
-- [H, least(H + 1 hour, mark)): the row of the mark's own hour is partial, and its readers read
-- raw clicks from the mark on. Everything that writes rows keeps to that:
--   - app.advance_click_rollups adds [mark, new mark) and moves the mark (lock held exclusive);
--   - app.rollup_clicks, which rebuilds hours from raw (late batches in app.record_clicks, the
--     seed, a scheduler), stops at the mark instead of the hour's end;
-- and every reader of the rows bounds them by the mark:
--   - app.click_analytics (link, account and public analytics, click_log_csv's size check)
--     reads the partial row when the period reaches the mark, then raw clicks from the mark;
--   - app.link_click_count reads rows of hours before the mark (the partial one included, as
--     its hour starts before the mark) and raw clicks from the mark: unchanged;
--   - app.route_breakdown reads routed clicks raw and the period's human clicks from
--     click_analytics: unchanged; the kiosk's totals and onboarding_progress read rows only and
--     are simply more recent.
--
-- The new mark trails the clock by a grace of seconds: a redirector writes its buffered clicks
-- within a second or so, and a click older than the mark when written (a late click) makes its
-- batch rebuild the hour from raw. Without the grace, every step's boundary would find a batch
-- in flight somewhere and pay that rebuild every few minutes instead of after a retry.

-- The step and the grace, read by app.advance_click_rollups and by the redirector (r), which
-- calls the advance when a step's boundary (plus the grace) has passed.
create function app.click_rollup_schedule(out step interval, out grace interval)
language sql immutable parallel safe security definer
set search_path = ''
as $$
  select interval '5 minutes', interval '30 seconds'
$$;

-- The mark due at an instant: the last step boundary at least the grace before it.
create function app.click_rollup_mark(p_at timestamptz) returns timestamptz
language sql immutable parallel safe security definer
set search_path = ''
as $$
  select date_bin(s.step, p_at - s.grace, timestamptz '2000-01-01 00:00:00+00')
  from app.click_rollup_schedule() as s
$$;

alter table app.click_rollup_state drop constraint click_rollup_state_rolled_until_check;
alter table app.click_rollup_state add constraint click_rollup_state_rolled_until_check
  check (rolled_until = date_bin((app.click_rollup_schedule()).step, rolled_until,
    timestamptz '2000-01-01 00:00:00+00'));

-- Raw clicks after the mark are found through the BRIN on time, which knows only the page ranges
-- it has summarized; the others are read whatever their times. Ranges are summarized by vacuum,
-- which an insert-only partition sees after a fifth of its rows again: the tail of unsummarized
-- pages, read by every per-link read, would be days long and the short raw window no help.
-- With autosummarize, each range filled is queued for an autovacuum worker (within its naptime,
-- a minute); only the range being filled stays unsummarized. Set on each partition's index (the
-- partitioned index only hands its definition to new partitions): now, and whenever
-- app.advance_click_rollups creates partitions.
create function app.autosummarize_click_ranges() returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_index regclass;
  v_set integer := 0;
begin
  for v_index in
    select i.inhrelid::regclass
    from pg_catalog.pg_inherits i
    join pg_catalog.pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'public.clicks_time_brin_idx'::regclass
      and not coalesce('autosummarize=on' = any (c.reloptions), false)
  loop
    execute format('alter index %s set (autosummarize = on)', v_index);
    v_set := v_set + 1;
  end loop;
  return v_set;
end;
$$;
select app.autosummarize_click_ranges();

-- Rows of hours from the mark on could hold clicks after it (rollup_clicks rolled up whole hours
-- and the readers ignored them); from now on the row of the mark's hour is read, and added to.
delete from public.click_stats_hourly
where hour >= (select s.rolled_until from app.click_rollup_state s);
delete from public.account_click_stats_hourly
where hour >= (select s.rolled_until from app.click_rollup_state s);

-- Two maps of counts as one: the counts of a key present in both are summed.
create function app.add_counts(p_a jsonb, p_b jsonb) returns jsonb
language sql immutable parallel safe security definer
set search_path = ''
as $$
  select case when p_a = '{}' then p_b when p_b = '{}' then p_a else (
    select jsonb_object_agg(e.key, e.clicks)
    from (
      select x.key, sum(x.value::bigint) as clicks
      from (select * from jsonb_each_text(p_a) union all select * from jsonb_each_text(p_b)) as x
      group by x.key
    ) as e
  ) end
$$;

-- Aggregates the raw clicks of [p_from, p_to) once and adds them into the hourly rows (new rows
-- inserted, existing ones summed), per link and per account. The caller makes sure no click of
-- the window is in a row already (advance: they are after the mark; rollup_clicks: it deleted
-- the hours first). One pass over the clicks (grouping sets) yields the totals and the five
-- breakdowns per link and per account; the maps are then folded from those groups.
create function app.add_click_rollups(p_from timestamptz, p_to timestamptz)
returns table (link_hours bigint, account_hours bigint)
language plpgsql security definer
set search_path = ''
-- The window's groups are hashed in memory; with the default 4MB the planner sorts on disk.
set work_mem = '128MB'
as $$
begin
  return query
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
    where c.time >= p_from and c.time < p_to
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
    insert into public.click_stats_hourly as s (alias_id, hour, account_id, clicks, bot_clicks,
      qr_clicks, countries, devices, browsers, oses, referrers)
    select f.alias_id, f.hour, f.account_id, f.clicks, f.bot_clicks, f.qr_clicks,
      coalesce(f.countries, '{}'), coalesce(f.devices, '{}'), coalesce(f.browsers, '{}'),
      coalesce(f.oses, '{}'), coalesce(f.referrers, '{}')
    from folded f where not f.per_account
    on conflict (alias_id, hour) do update set
      clicks = s.clicks + excluded.clicks,
      bot_clicks = s.bot_clicks + excluded.bot_clicks,
      qr_clicks = s.qr_clicks + excluded.qr_clicks,
      countries = app.add_counts(s.countries, excluded.countries),
      devices = app.add_counts(s.devices, excluded.devices),
      browsers = app.add_counts(s.browsers, excluded.browsers),
      oses = app.add_counts(s.oses, excluded.oses),
      referrers = app.add_counts(s.referrers, excluded.referrers)
    returning 1
  ),
  accounts as (
    insert into public.account_click_stats_hourly as s (account_id, hour, clicks, bot_clicks,
      qr_clicks, countries, devices, browsers, oses, referrers)
    select f.account_id, f.hour, f.clicks, f.bot_clicks, f.qr_clicks,
      coalesce(f.countries, '{}'), coalesce(f.devices, '{}'), coalesce(f.browsers, '{}'),
      coalesce(f.oses, '{}'), coalesce(f.referrers, '{}')
    from folded f where f.per_account and f.account_id is not null
    on conflict (account_id, hour) do update set
      clicks = s.clicks + excluded.clicks,
      bot_clicks = s.bot_clicks + excluded.bot_clicks,
      qr_clicks = s.qr_clicks + excluded.qr_clicks,
      countries = app.add_counts(s.countries, excluded.countries),
      devices = app.add_counts(s.devices, excluded.devices),
      browsers = app.add_counts(s.browsers, excluded.browsers),
      oses = app.add_counts(s.oses, excluded.oses),
      referrers = app.add_counts(s.referrers, excluded.referrers)
    returning 1
  )
  select (select count(*) from links), (select count(*) from accounts);
end;
$$;

-- app.rollup_clicks of migration 000220: rebuilds the rows of the UTC hours overlapping
-- [p_from, p_to) from the raw clicks, each up to the mark at most ([H, least(H + 1 hour, mark))),
-- so running it twice over a window changes nothing and a row never holds clicks the readers
-- read raw. The rollup lock is held shared, as writers of clicks hold it: the mark stays put.
create or replace function app.rollup_clicks(p_from timestamptz, p_to timestamptz) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  v_from timestamptz := date_bin('1 hour', p_from, timestamptz '2000-01-01 00:00:00+00');
  v_to timestamptz := date_bin('1 hour', p_to, timestamptz '2000-01-01 00:00:00+00');
  v_until timestamptz;
  v_links bigint := 0;
  v_accounts bigint := 0;
begin
  if p_from is null or p_to is null or p_to <= p_from then
    raise exception 'rollup_clicks: the window must end after it starts' using errcode = '22023';
  end if;
  if v_to < p_to then
    v_to := v_to + interval '1 hour';
  end if;
  perform pg_advisory_xact_lock_shared(app.click_rollup_lock_key());
  -- Overlapping runs would each delete and then insert the same hours.
  perform pg_advisory_xact_lock(hashtext('app.rollup_clicks'));
  v_until := least(v_to, (select s.rolled_until from app.click_rollup_state s));

  delete from public.click_stats_hourly where hour >= v_from and hour < v_to;
  delete from public.account_click_stats_hourly where hour >= v_from and hour < v_to;
  if v_until > v_from then
    select a.link_hours, a.account_hours into v_links, v_accounts
    from app.add_click_rollups(v_from, v_until) as a;
  end if;

  return jsonb_build_object('from', v_from, 'to', v_to, 'until', greatest(v_from, v_until),
    'link_hours', v_links, 'account_hours', v_accounts);
end;
$$;

-- app.advance_click_rollups of migration 001100: the clicks since the mark are added into the
-- rows of their hours, and the mark moves to the step due now. Creates next months' click
-- partitions when a month turns. Returns the new mark. p_at: the instant whose mark is due,
-- never after now (a test steps the mark through an hour inside one transaction).
drop function app.advance_click_rollups();
create function app.advance_click_rollups(p_at timestamptz default now()) returns timestamptz
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz := app.click_rollup_mark(least(p_at, now()));
begin
  perform pg_advisory_xact_lock(app.click_rollup_lock_key());
  select s.rolled_until into v_from from app.click_rollup_state s for update;
  if v_to <= v_from then
    return v_from;
  end if;
  perform app.add_click_rollups(v_from, v_to);
  update app.click_rollup_state set rolled_until = v_to;
  if date_trunc('month', v_from, 'UTC') <> date_trunc('month', v_to, 'UTC') then
    perform app.ensure_click_partitions();
    perform app.autosummarize_click_ranges();
  end if;
  return v_to;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- app.click_analytics of migration 001110: the row of the mark's hour covers [its hour, mark); the
-- raw part read as two ranges (the period's first partial hour, and from the mark on), so that
-- the BRIN on time reads just them.

create or replace function app.click_analytics(
  p_key_column text, p_key uuid, p_from timestamptz, p_to timestamptz, p_unit text
) returns jsonb
language plpgsql stable security definer
set search_path = ''
set timezone = 'UTC'
as $$
declare
  v_rollups text := case p_key_column
    when 'alias_id' then 'public.click_stats_hourly'
    when 'account_id' then 'public.account_click_stats_hourly' end;
  v_rolled_until timestamptz := (select s.rolled_until from app.click_rollup_state s);
  -- The whole hours of the window that the rollups may hold; none when the series needs minutes.
  v_hours_from timestamptz := date_bin('1 hour', p_from - interval '1 microsecond',
    timestamptz '2000-01-01 00:00:00+00') + interval '1 hour';
  -- Where the rows read stop covering the window, and raw clicks are read from.
  v_covered_to timestamptz;
  -- The rows read: hours in [v_hours_from, v_rows_to), the last one partial when the mark is
  -- inside it.
  v_rows_to timestamptz;
  v_result jsonb;
begin
  if v_rollups is null or p_unit not in ('minute', 'hour', 'day') or p_to <= p_from then
    raise exception 'click_analytics: bad arguments' using errcode = '22023';
  end if;
  -- The rows cover [their hour, least(hour's end, mark)): up to the mark when it is inside the
  -- window (the partial row of its hour with it), else up to the window's last whole hour.
  v_covered_to := greatest(v_hours_from, case when v_rolled_until <= p_to then v_rolled_until
    else date_bin('1 hour', p_to, timestamptz '2000-01-01 00:00:00+00') end);
  if p_unit = 'minute' then
    v_covered_to := v_hours_from;
  end if;
  v_rows_to := date_bin('1 hour', v_covered_to - interval '1 microsecond',
    timestamptz '2000-01-01 00:00:00+00') + interval '1 hour';

  -- Raw clicks: [from, first whole hour) and [end of what the rows cover, to), as two ranges
  -- so that the BRIN on time reads just them ($4 <= $5, so they never overlap).
  execute format($query$
    with rolled as (
      select s.hour, s.clicks, s.bot_clicks, s.qr_clicks, s.countries, s.devices, s.browsers,
        s.oses, s.referrers
      from %1$s s
      where s.%2$I = $1 and s.hour >= $4 and s.hour < $7
    ),
    raw as (
      select c.time, c.is_bot, c.is_qr, c.country, c.device, c.browser, c.os, c.referrer_host
      from public.clicks c
      where c.%2$I = $1 and c.time >= $2 and c.time < least($3, $4)
      union all
      select c.time, c.is_bot, c.is_qr, c.country, c.device, c.browser, c.os, c.referrer_host
      from public.clicks c
      where c.%2$I = $1 and c.time >= greatest($2, $5) and c.time < $3
    ),
    bucket_counts as (
      select date_trunc($6, r.hour) as bucket, sum(r.clicks - r.bot_clicks) as clicks
      from rolled r group by 1
      union all
      select date_trunc($6, c.time), count(*) from raw c where not c.is_bot group by 1
    ),
    series as (
      select b.bucket, coalesce(sum(s.clicks), 0) as clicks
      from generate_series(date_trunc($6, $2), $3 - interval '1 microsecond',
        ('1 ' || $6)::interval) as b(bucket)
      left join bucket_counts s on s.bucket = b.bucket
      group by b.bucket
    ),
    dimension_counts as (
      select d.dimension, e.key as value, e.value::bigint as clicks
      from rolled r
      cross join lateral (values ('countries', r.countries), ('devices', r.devices),
        ('browsers', r.browsers), ('oses', r.oses), ('referrers', r.referrers)) as d(dimension, map)
      cross join lateral jsonb_each_text(d.map) as e
      union all
      select d.dimension, coalesce(d.value, ''), count(*)
      from raw c
      cross join lateral (values ('countries', c.country), ('devices', c.device),
        ('browsers', c.browser), ('oses', c.os), ('referrers', c.referrer_host))
        as d(dimension, value)
      where not c.is_bot
      group by 1, 2
    ),
    breakdowns as (
      select x.dimension,
        jsonb_agg(jsonb_build_object('value', nullif(x.value, ''), 'clicks', x.clicks)
          order by x.clicks desc, x.value) as items
      from (
        select dc.dimension, dc.value, sum(dc.clicks) as clicks
        from dimension_counts dc group by 1, 2
      ) as x
      group by x.dimension
    ),
    totals as (
      select coalesce(sum(t.clicks), 0) as clicks, coalesce(sum(t.bots), 0) as bots,
        coalesce(sum(t.qr), 0) as qr
      from (
        select sum(r.clicks - r.bot_clicks) as clicks, sum(r.bot_clicks) as bots,
          sum(r.qr_clicks) as qr
        from rolled r
        union all
        select count(*) filter (where not c.is_bot), count(*) filter (where c.is_bot),
          count(*) filter (where c.is_qr)
        from raw c
      ) as t
    )
    select jsonb_build_object(
      'from', $2, 'to', $3, 'unit', $6,
      'clicks', t.clicks, 'bot_clicks', t.bots, 'qr_clicks', t.qr,
      'series', (select coalesce(jsonb_agg(jsonb_build_object('time', s.bucket, 'clicks', s.clicks)
        order by s.bucket), '[]') from series s),
      'countries', coalesce((select b.items from breakdowns b where b.dimension = 'countries'), '[]'),
      'devices', coalesce((select b.items from breakdowns b where b.dimension = 'devices'), '[]'),
      'browsers', coalesce((select b.items from breakdowns b where b.dimension = 'browsers'), '[]'),
      'oses', coalesce((select b.items from breakdowns b where b.dimension = 'oses'), '[]'),
      'referrers', coalesce((select b.items from breakdowns b where b.dimension = 'referrers'), '[]')
    )
    from totals t
  $query$, v_rollups, p_key_column)
  into v_result
  using p_key, p_from, p_to, v_hours_from, v_covered_to, p_unit, v_rows_to;
  return v_result;
end;
$$;

-- Rollups are written by their owner's functions alone; the redirector (service role) reads
-- the schedule.
revoke execute on all functions in schema app from public;
grant execute on function app.click_rollup_schedule(), app.advance_click_rollups(timestamptz)
  to service_role;
