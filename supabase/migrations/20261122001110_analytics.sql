-- Click analytics: for one link or one account over the spec's stats periods (last_1_hour,
-- last_24_hour (default), last_7_day, last_30_day), a time series and breakdowns by country,
-- device, browser, operating system and referrer; bots excluded. Public analytics through a
-- share token where the plan allows sharing, and the raw click log as CSV where the plan allows
-- downloading logs.
--
-- Served from the hourly rollups (migration 000220) for the whole hours of the period that are
-- rolled up (before app.click_rollup_state.rolled_until, migration 001100), and from the raw
-- clicks for the rest: the part-hour at the start of the period and everything from the mark on
-- (the open hour, and any hour not rolled up yet). So the numbers never lag and equal a count
-- over the raw clicks of the same window, [now() - period, now()).
--
-- Series buckets are UTC minutes (last_1_hour, read raw), hours (last_24_hour) or days
-- (last_7_day, last_30_day); the first bucket starts at the period's start truncated to the unit.
-- Bots are left out of every figure except bot_clicks and qr_clicks (QR scans are counted as
-- the rollups count them, whoever scanned).
--
-- Who may read: readers of the link's account (links.read), supervisors of the organization the
-- link was made in, staff. The plan must have use_analytics (and analytics_enabled not false),
-- and a period no longer than its analytics_period option.

-- ---------------------------------------------------------------------------------------------
-- Errors of this area (the shared ones fall back to app.link_error's catalogue).

create function app.analytics_error(p_code text) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_status text;
  v_detail text;
  v_hint text;
begin
  select e.status, e.detail, e.hint into v_status, v_detail, v_hint
  from (values
    ('analytics_not_allowed', '403', 'Your plan does not include analytics.', 'form'),
    ('analytics_period_invalid', '422', 'The selected period is invalid.', 'period'),
    ('analytics_period_not_allowed', '403',
      'Your plan does not include analytics for this period.', 'period'),
    ('download_logs_not_allowed', '403', 'Your plan does not allow downloading click logs.',
      'form'),
    ('share_analytics_not_allowed', '403', 'Your plan does not allow sharing analytics.', 'form'),
    ('analytics_share_not_found', '404', 'Analytics not found.', 'analytics'),
    ('analytics_target_invalid', '422', 'Give either a link or an account.', 'form'),
    ('click_log_too_large', '422',
      'The click log has more than 100000 rows; choose a shorter period.', 'period')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if v_status is null then
    perform app.link_error(p_code);
  end if;
  raise exception using errcode = 'PT' || v_status, message = p_code, detail = v_detail,
    hint = v_hint;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Periods and plan gates.

create function app.analytics_interval(p_period text) returns interval
language plpgsql immutable security definer
set search_path = ''
as $$
begin
  case coalesce(p_period, 'last_24_hour')
    when 'last_1_hour' then return interval '1 hour';
    when 'last_24_hour' then return interval '24 hours';
    when 'last_7_day' then return interval '7 days';
    when 'last_30_day' then return interval '30 days';
    else perform app.analytics_error('analytics_period_invalid');
  end case;
  return null;
end;
$$;

-- A plan option that is not a count (analytics_enabled, analytics_public, analytics_period…):
-- the account's current price's value, or null when the price leaves it out.
create function app.account_plan_option(p_account_id uuid, p_option text) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select pp.options -> p_option from public.plan_prices pp
  where pp.id = app.account_price_id(p_account_id)
$$;

-- Refuses unless the account's plan includes analytics over this interval. Staff read anything.
create function app.require_analytics(p_account_id uuid, p_interval interval) returns void
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_period jsonb;
begin
  if app.is_staff() then
    return;
  end if;
  if p_account_id is null or not app.account_has_feature(p_account_id, 'use_analytics')
    or app.account_plan_option(p_account_id, 'analytics_enabled') = 'false'::jsonb then
    perform app.analytics_error('analytics_not_allowed');
  end if;
  v_period := app.account_plan_option(p_account_id, 'analytics_period');
  if jsonb_typeof(v_period) = 'string' and (v_period #>> '{}')::interval < p_interval then
    perform app.analytics_error('analytics_period_not_allowed');
  end if;
end;
$$;

-- A link whose analytics the caller may read: its id, account and the account whose plan gates
-- it; alias_not_found otherwise (the same answer as for a link that does not exist).
create function app.readable_link(p_alias_id uuid)
returns table (alias_id uuid, account_id uuid, feature_account_id uuid, domain text, alias text)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select a.id, a.account_id, app.feature_account_id(a.account_id, a.organization_id),
      d.domain::text, a.alias::text
    from public.aliases a
    join public.domains d on d.id = a.domain_id
    where a.id = p_alias_id
      and (app.is_staff()
        or (a.account_id is not null and app.has_permission(a.account_id, 'links.read'))
        or a.organization_id in (select app.supervised_organization_ids()));
  if not found then
    perform app.analytics_error('alias_not_found');
  end if;
end;
$$;

create function app.require_account_reader(p_account_id uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_account_id is null
    or not (app.is_staff() or app.has_permission(p_account_id, 'links.read')) then
    perform app.analytics_error('permission_denied');
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The figures.

-- Analytics of the clicks whose p_key_column ('alias_id' or 'account_id') is p_key, in
-- [p_from, p_to), with series buckets of p_unit ('minute', 'hour' or 'day'). Dynamic SQL so
-- each call is planned for its own key column (index on clicks (alias_id, time) for a link).
create function app.click_analytics(
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
      where c.%2$I = $1 and c.time >= $2 and c.time < $3 and (c.time < $4 or c.time >= $5)
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

create function app.analytics_unit(p_interval interval) returns text
language sql immutable security definer
set search_path = ''
as $$
  select case when p_interval <= interval '1 hour' then 'minute'
    when p_interval <= interval '1 day' then 'hour' else 'day' end
$$;

-- One period's analytics with the period's name in front.
create function app.period_analytics(p_key_column text, p_key uuid, p_period text) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_interval interval := app.analytics_interval(p_period);
begin
  return jsonb_build_object('period', coalesce(p_period, 'last_24_hour'))
    || app.click_analytics(p_key_column, p_key, now() - v_interval, now(),
      app.analytics_unit(v_interval));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- RPCs: one link, one account.

create function public.link_analytics(p_alias_id uuid, p_period text default 'last_24_hour')
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_link record;
begin
  select * into v_link from app.readable_link(p_alias_id);
  perform app.require_analytics(v_link.feature_account_id, app.analytics_interval(p_period));
  return jsonb_build_object('alias_id', v_link.alias_id, 'domain', v_link.domain,
      'alias', v_link.alias)
    || app.period_analytics('alias_id', v_link.alias_id, p_period);
end;
$$;
comment on function public.link_analytics(uuid, text) is
  'A link''s clicks over a stats period: totals, a time series and breakdowns, bots excluded.';

create function public.account_analytics(p_account_id uuid, p_period text default 'last_24_hour')
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.require_account_reader(p_account_id);
  perform app.require_analytics(p_account_id, app.analytics_interval(p_period));
  return jsonb_build_object('account_id', p_account_id)
    || app.period_analytics('account_id', p_account_id, p_period);
end;
$$;
comment on function public.account_analytics(uuid, text) is
  'All of an account''s links'' clicks over a stats period, bots excluded.';

-- ---------------------------------------------------------------------------------------------
-- Public analytics: a link's manager shares its analytics under an unguessable token (the
-- portal's analytics/{hash} page) when the plan has share_analytics and analytics_public.

create table public.analytics_shares (
  alias_id uuid primary key,
  account_id uuid not null,
  token text not null unique check (token ~ '^[A-Za-z0-9_-]{24}$'),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  foreign key (alias_id, account_id) references public.aliases (id, account_id) on delete cascade
);
comment on table public.analytics_shares is
  'Links whose analytics anyone with the token may read (public_link_analytics).';
create index analytics_shares_account_id_idx on public.analytics_shares (account_id);
create index analytics_shares_created_by_idx on public.analytics_shares (created_by);

create function app.sharing_allowed(p_account_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select app.account_has_feature(p_account_id, 'share_analytics')
    and coalesce(app.account_plan_option(p_account_id, 'analytics_public') = 'true'::jsonb, false)
$$;

-- Who may share or unshare: a link manager of the account, or the member who made the link.
create function app.require_link_manager(p_alias_id uuid) returns public.aliases
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_alias public.aliases;
begin
  select * into v_alias from public.aliases a where a.id = p_alias_id;
  if not found or v_alias.account_id is null then
    perform app.analytics_error('alias_not_found');
  end if;
  if not (app.has_permission(v_alias.account_id, 'links.manage')
      or (v_alias.created_by = (select auth.uid())
          and app.has_permission(v_alias.account_id, 'links.create'))) then
    if app.has_permission(v_alias.account_id, 'links.read') then
      perform app.analytics_error('permission_denied');
    end if;
    perform app.analytics_error('alias_not_found');
  end if;
  return v_alias;
end;
$$;

-- Shares a link's analytics and answers the token (the same one if it is already shared).
create function public.share_link_analytics(p_alias_id uuid) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_alias public.aliases := app.require_link_manager(p_alias_id);
  v_token text;
begin
  if not app.sharing_allowed(app.feature_account_id(v_alias.account_id, v_alias.organization_id)) then
    perform app.analytics_error('share_analytics_not_allowed');
  end if;
  insert into public.analytics_shares (alias_id, account_id, token)
  values (v_alias.id, v_alias.account_id,
    translate(encode(extensions.gen_random_bytes(18), 'base64'), '+/', '-_'))
  on conflict (alias_id) do update set token = public.analytics_shares.token
  returning token into v_token;
  return v_token;
end;
$$;

create function public.unshare_link_analytics(p_alias_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_alias public.aliases := app.require_link_manager(p_alias_id);
begin
  delete from public.analytics_shares s where s.alias_id = v_alias.id;
end;
$$;

-- Anyone with the token: the shared link's analytics while its plan still allows sharing and
-- the link is live (not deleted or terminated); analytics_share_not_found otherwise.
create function public.public_link_analytics(p_token text, p_period text default 'last_24_hour')
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_link record;
  v_interval interval := app.analytics_interval(p_period);
  v_period jsonb;
begin
  select a.id, d.domain::text as domain, a.alias::text as alias,
    app.feature_account_id(a.account_id, a.organization_id) as feature_account_id
  into v_link
  from public.analytics_shares s
  join public.aliases a on a.id = s.alias_id
  join public.domains d on d.id = a.domain_id
  where s.token = p_token and a.status not in ('deleted', 'terminated');
  if not found or not app.sharing_allowed(v_link.feature_account_id)
    or not app.account_has_feature(v_link.feature_account_id, 'use_analytics') then
    perform app.analytics_error('analytics_share_not_found');
  end if;
  v_period := app.account_plan_option(v_link.feature_account_id, 'analytics_period');
  if jsonb_typeof(v_period) = 'string' and (v_period #>> '{}')::interval < v_interval then
    perform app.analytics_error('analytics_period_not_allowed');
  end if;
  return jsonb_build_object('domain', v_link.domain, 'alias', v_link.alias)
    || app.period_analytics('alias_id', v_link.id, p_period);
end;
$$;
comment on function public.public_link_analytics(text, text) is
  'A shared link''s analytics for anyone holding the share token.';

-- ---------------------------------------------------------------------------------------------
-- The raw click log as CSV (RFC 4180, CRLF line ends), for a link or an account, where the plan
-- has download_logs. PostgREST serves the text/csv domain as the response body when the client
-- asks for it (Accept: text/csv). Visitors appear as the first 16 hex digits of the keyed IP
-- hash: enough to tell visits of one visitor apart, no address.

create domain public."text/csv" as text;

-- One CSV field: quoted when it holds a separator, quote or line break; a value a spreadsheet
-- would run as a formula (= + - @, tab, carriage return first) gets a leading apostrophe.
create function app.csv_field(p_value text) returns text
language sql immutable security definer
set search_path = ''
as $$
  select case
    when p_value is null then ''
    else (
      select case when v ~ '[",\r\n]' then '"' || replace(v, '"', '""') || '"' else v end
      from (select case when p_value ~ '^[=+\-@\t\r]' then '''' || p_value else p_value end as v) as e
    )
  end
$$;

create function public.click_log_csv(
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

  execute format('select count(*) from public.clicks c where c.%I = $1 and c.time >= $2',
    v_key_column)
  into v_rows using v_key, now() - v_interval;
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
comment on function public.click_log_csv(uuid, uuid, text) is
  'The raw clicks of a link or an account over a stats period, as CSV (Accept: text/csv).';

-- ---------------------------------------------------------------------------------------------
-- Row-level security and privileges.

alter table public.analytics_shares enable row level security;

create policy "Members can read their accounts' analytics shares" on public.analytics_shares
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Staff can read every analytics share" on public.analytics_shares
  for select to authenticated
  using ((select app.is_staff()));

-- Shares are made and removed through the RPCs only.
revoke all on public.analytics_shares from anon;
revoke insert, update, delete, truncate, references, trigger on public.analytics_shares
  from authenticated;

-- Supabase's default privileges grant every new function in public to anon explicitly.
revoke execute on function public.link_analytics(uuid, text), public.account_analytics(uuid, text),
  public.share_link_analytics(uuid), public.unshare_link_analytics(uuid),
  public.public_link_analytics(text, text), public.click_log_csv(uuid, uuid, text)
  from public, anon;
grant execute on function public.link_analytics(uuid, text), public.account_analytics(uuid, text),
  public.share_link_analytics(uuid), public.unshare_link_analytics(uuid),
  public.click_log_csv(uuid, uuid, text) to authenticated, service_role;
grant execute on function public.public_link_analytics(text, text)
  to anon, authenticated, service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
