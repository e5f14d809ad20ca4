-- Click ingest without the per-link index (issue 17, item 6). After migration 003400 a click
-- still cost Postgres about two thirds of what it did before: storing the row itself, and
-- keeping the btree on clicks (alias_id, time) in step, a third of a click's cost on its own (a
-- random leaf of a tree as large as the table for every click; with each page's first change
-- after a checkpoint written whole to the WAL).
--
-- That btree served the per-link reads of raw clicks. They now read by time (the BRIN on time),
-- each over a window that is short by construction, or from the rollups:
--   - link_analytics (app.click_analytics): the raw part of a period is its first, partial hour
--     and the hours after the rollup mark (the open hour, normally). It asked for
--     `time in [from, to) and (time < first whole hour or time >= mark)`, which a range index
--     can only read as the whole period; it now asks for the two ranges, each an hour or two.
--     Account analytics gain the same (they never had an index but the BRIN);
--   - the route breakdown of link_analytics: the clicks a route sent are few (most redirects
--     take the link's own destination), so a partial index over routed clicks alone counts them,
--     and the destination's share is the period's human clicks (already counted, from the
--     rollups and the short raw windows) less the routed ones;
--   - app.link_click_count: the rolled-up hours, then the raw clicks after the mark (the open
--     hour), planned for the mark's value so that the BRIN reads that hour only;
--   - click_log_csv of a link: the period's raw clicks by time, filtered by link, as the
--     account's log always read them; its size check (at most 100,000 rows) now counts as the
--     analytics do instead of reading the period a first time. Dearer for a link than through
--     the btree, but a download, not a page view (figures in docs/scaling.md).
-- Nothing else read raw clicks by link.

drop index public.clicks_alias_id_time_idx;

-- Routed clicks only: what a redirect rule sent, a small share of clicks, the only ones that
-- pay for an index entry.
create index clicks_routed_idx on public.clicks (alias_id, time) where route_id is not null;

-- ---------------------------------------------------------------------------------------------
-- 1. app.click_analytics of migration 001110, the raw part as two ranges.

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
  -- The whole hours of the window that the rollups hold; none when the series needs minutes.
  v_hours_from timestamptz := date_bin('1 hour', p_from - interval '1 microsecond',
    timestamptz '2000-01-01 00:00:00+00') + interval '1 hour';
  v_hours_to timestamptz;
  v_result jsonb;
begin
  if v_rollups is null or p_unit not in ('minute', 'hour', 'day') or p_to <= p_from then
    raise exception 'click_analytics: bad arguments' using errcode = '22023';
  end if;
  v_hours_to := greatest(v_hours_from, least(v_rolled_until,
    date_bin('1 hour', p_to, timestamptz '2000-01-01 00:00:00+00')));
  if p_unit = 'minute' then
    v_hours_to := v_hours_from;
  end if;

  -- Raw clicks: [from, first whole hour) and [end of the rolled-up hours, to), as two ranges
  -- so that the BRIN on time reads just them ($4 <= $5, so they never overlap).
  execute format($query$
    with rolled as (
      select s.hour, s.clicks, s.bot_clicks, s.qr_clicks, s.countries, s.devices, s.browsers,
        s.oses, s.referrers
      from %1$s s
      where s.%2$I = $1 and s.hour >= $4 and s.hour < $5
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
  using p_key, p_from, p_to, v_hours_from, v_hours_to, p_unit;
  return v_result;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. The route breakdown: routed clicks through the partial index, the destination's share by
-- difference.

-- A link's clicks per route over the period, bots excluded: [{route_id, url, position, clicks}],
-- route_id null for the link's own destination, url and position null for a removed route.
-- p_human_clicks: the link's human clicks over the same period (link_analytics has counted
-- them); what no route sent went to the destination.
drop function app.route_breakdown(uuid, timestamptz, timestamptz);
create function app.route_breakdown(
  p_alias_id uuid, p_from timestamptz, p_to timestamptz, p_human_clicks bigint
) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  with routed as (
    select c.route_id, count(*) as clicks
    from public.clicks c
    where c.alias_id = p_alias_id and c.time >= p_from and c.time < p_to and not c.is_bot
      and c.route_id is not null
    group by c.route_id
  ),
  counted as (
    select r.route_id, r.clicks from routed r
    union all
    select null, p_human_clicks - coalesce((select sum(r.clicks) from routed r), 0)
  )
  select coalesce(jsonb_agg(jsonb_build_object('route_id', x.route_id, 'url', r.url,
      'position', r.position, 'clicks', x.clicks) order by x.clicks desc, r.position), '[]')
  from counted x
  left join public.alias_routes r on r.id = x.route_id
  where x.clicks > 0
$$;

-- public.link_analytics of migration 002900, the period counted before its routes.
create or replace function public.link_analytics(p_alias_id uuid, p_period text default 'last_24_hour')
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_link record;
  v_interval interval := app.analytics_interval(p_period);
  v_period jsonb;
begin
  select * into v_link from app.readable_link(p_alias_id);
  perform app.require_analytics(v_link.feature_account_id, v_interval);
  -- now() - v_interval to now(): the window app.period_analytics reads too.
  v_period := app.period_analytics('alias_id', v_link.alias_id, p_period);
  return jsonb_build_object('alias_id', v_link.alias_id, 'domain', v_link.domain,
      'alias', v_link.alias,
      'routes', app.route_breakdown(v_link.alias_id, now() - v_interval, now(),
        (v_period ->> 'clicks')::bigint))
    || v_period;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. app.link_click_count of migration 002900, planned for the mark.

create or replace function app.link_click_count(p_alias_id uuid) returns bigint
language plpgsql stable security definer
set search_path = ''
-- A plan for the mark's value: the BRIN then reads the hours after it only; a generic plan
-- cannot know how few they are.
set plan_cache_mode = force_custom_plan
as $$
declare
  v_rolled_until timestamptz := (select s.rolled_until from app.click_rollup_state s);
begin
  return coalesce((select sum(s.clicks - s.bot_clicks) from public.click_stats_hourly s
      where s.alias_id = p_alias_id and s.hour < v_rolled_until), 0)
    + (select count(*) from public.clicks c
      where c.alias_id = p_alias_id and c.time >= v_rolled_until and not c.is_bot);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. public.click_log_csv of migration 001110, its size counted from the rollups.

create or replace function public.click_log_csv(
  p_alias_id uuid default null,
  p_account_id uuid default null,
  p_period text default 'last_24_hour'
) returns public."text/csv"
language plpgsql stable security definer
set search_path = ''
set timezone = 'UTC'
as $$
declare
  v_interval interval := app.analytics_interval(p_period);
  v_key_column text;
  v_key uuid;
  v_feature_account uuid;
  v_rows bigint;
  v_csv text;
  v_link record;
begin
  if (p_alias_id is null) = (p_account_id is null) then
    perform app.analytics_error('analytics_target_invalid');
  end if;
  if p_alias_id is not null then
    select * into v_link from app.readable_link(p_alias_id);
    v_key_column := 'alias_id';
    v_key := v_link.alias_id;
    v_feature_account := v_link.feature_account_id;
  else
    perform app.require_account_reader(p_account_id);
    v_key_column := 'account_id';
    v_key := p_account_id;
    v_feature_account := p_account_id;
  end if;
  perform app.require_analytics(v_feature_account, v_interval);
  if not app.is_staff() and not app.account_has_feature(v_feature_account, 'download_logs') then
    perform app.analytics_error('download_logs_not_allowed');
  end if;

  -- Counted as the analytics count (rolled-up hours, and the short raw windows around them),
  -- not by reading the period's raw clicks twice.
  select (x.figures ->> 'clicks')::bigint + (x.figures ->> 'bot_clicks')::bigint into v_rows
  from app.click_analytics(v_key_column, v_key, now() - v_interval, now(), 'hour') as x(figures);
  if v_rows > 100000 then
    perform app.analytics_error('click_log_too_large');
  end if;

  execute format($query$
    select string_agg(line, E'\r\n' order by n) || E'\r\n'
    from (
      select 0 as n, 'time,domain,alias,country,device,browser,os,referrer,bot,qr,visitor' as line
      union all
      select row_number() over (order by c.time, c.alias_id),
        concat_ws(',', to_char(c.time, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), app.csv_field(d.domain),
          app.csv_field(a.alias::text), app.csv_field(c.country), app.csv_field(c.device),
          app.csv_field(c.browser), app.csv_field(c.os), app.csv_field(c.referrer_host),
          c.is_bot::text, c.is_qr::text, left(encode(c.ip_hash, 'hex'), 16))
      from public.clicks c
      join public.aliases a on a.id = c.alias_id
      join public.domains d on d.id = a.domain_id
      where c.%I = $1 and c.time >= $2 and c.time < $3
    ) as lines
  $query$, v_key_column)
  into v_csv using v_key, now() - v_interval, now();

  perform set_config('response.headers', json_build_array(json_build_object(
    'Content-Disposition', format('attachment; filename="clicks-%s.csv"', p_period)))::text, true);
  return v_csv;
end;
$$;

revoke execute on function app.route_breakdown(uuid, timestamptz, timestamptz, bigint) from public;
