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
--     can only read as the whole period; migration 20261122006950, which moves the mark in
--     steps of minutes, asks for the two ranges, each a few minutes. Account analytics gain the
--     same (they never had an index but the BRIN);
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
-- 1. The route breakdown: routed clicks through the partial index, the destination's share by
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
-- 2. app.link_click_count of migration 002900, planned for the mark.

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
-- 3. public.click_log_csv of migration 001110, its size counted from the rollups.

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
