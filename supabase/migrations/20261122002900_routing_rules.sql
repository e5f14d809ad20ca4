-- Redirect routes at redirect time ("if <value> <condition> [<operation> <operands>] then go to
-- <url>", shared/src/routing.ts evaluates them in the `r` function):
--
-- 1. The builder's vocabulary grows: a query parameter, the time of day and the day of week (in
--    a time zone). Values that need one more word take it in the rule's `argument` (the query
--    parameter's name, the IANA time zone); route_values.argument says which.
-- 2. Route changes are announced on link_cache like the link's own, so that `r`, which caches a
--    link with its routes, drops them at once.
-- 3. app.resolve_short_links answers each link's routes (only those whose URL the destination
--    rule still accepts: a ban added after the route was saved stops it, as it stops links).
-- 4. Clicks record the route that sent them (clicks.route_id; null: the link's destination), and
--    a link's analytics break down by route.
-- 5. RPCs for the builder: public.route_builder_init() (the spec's `GET routes/init`) and
--    public.save_alias_routes(alias, routes), which replaces a link's routes in one transaction
--    under the tables' row-level security (feature redirect_routes, permission to manage it).

-- ---------------------------------------------------------------------------------------------
-- 1. Vocabulary.

alter table public.route_values drop constraint route_values_type_check;
alter table public.route_values add constraint route_values_type_check
  check (type in ('string', 'number', 'list', 'datetime', 'time'));
alter table public.route_operations drop constraint route_operations_types_check;
alter table public.route_operations add constraint route_operations_types_check
  check (types <@ '{string,number,list,datetime,time}'::text[]);

alter table public.route_values add column argument text
  check (argument in ('parameter', 'time_zone'));
comment on column public.route_values.argument is
  'The extra word a rule on this value takes: a query parameter''s name, or a time zone.';

insert into public.route_values (id, name, type, "values", custom_values, is_assoc, argument) values
  ('query', 'Query parameter', 'string', null, true, false, 'parameter'),
  ('time_of_day', 'Time of day', 'time', null, true, false, 'time_zone'),
  ('day_of_week', 'Day of week', 'string',
    '["monday","tuesday","wednesday","thursday","friday","saturday","sunday"]', false, false,
    'time_zone');

update public.route_operations set types = types || '{time}'
where id in ('equals', 'not_equals', 'in', 'not_in', 'greater_than', 'less_than');

alter table public.alias_route_rules add column argument text
  check (char_length(argument) between 1 and 100);

-- app.check_route_rule as it was, plus the argument (required for a query parameter, a known
-- time zone or none for times, absent otherwise) and time-of-day operands in HH:MM.
create or replace function app.check_route_rule() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_value public.route_values;
  v_condition public.route_conditions;
  v_operation public.route_operations;
  v_choices text[];
begin
  select * into v_value from public.route_values where id = new.value_id;
  select * into v_condition from public.route_conditions where id = new.condition_id;
  if v_condition.has_operations <> (new.operation_id is not null) then
    perform app.link_error('route_rule_invalid', 'rules.operation',
      case when v_condition.has_operations then 'The condition needs an operation.'
        else 'The condition takes no operation.' end);
  end if;
  if v_value.argument is null and new.argument is not null then
    perform app.link_error('route_rule_invalid', 'rules.argument',
      format('%s takes no argument.', v_value.name));
  elsif v_value.argument = 'parameter' and new.argument is null then
    perform app.link_error('route_rule_invalid', 'rules.argument',
      'Name the query parameter.');
  elsif v_value.argument = 'time_zone' and new.argument is not null
    and not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.argument) then
    perform app.link_error('route_rule_invalid', 'rules.argument',
      format('"%s" is not a known time zone.', new.argument));
  end if;
  if new.operation_id is null then
    return new;
  end if;
  select * into v_operation from public.route_operations where id = new.operation_id;
  if not v_value.type = any (v_operation.types) then
    perform app.link_error('route_rule_invalid', 'rules.operation',
      format('"%s" does not apply to %s.', v_operation.name, v_value.name));
  end if;
  if cardinality(new.operands) = 0
    or (cardinality(new.operands) > 1 and not v_operation.support_list) then
    perform app.link_error('route_rule_invalid', 'rules.operands',
      case when v_operation.support_list then 'Give at least one value.'
        else 'Give exactly one value.' end);
  end if;
  if v_value.type = 'time'
    and exists (select 1 from unnest(new.operands) o where o !~ '^([01]?[0-9]|2[0-3]):[0-5][0-9]$') then
    perform app.link_error('route_rule_invalid', 'rules.operands',
      'Give times of day as HH:MM (24 hours).');
  end if;
  if not v_value.custom_values and v_value."values" is not null then
    v_choices := case when v_value.is_assoc
      then array(select jsonb_object_keys(v_value."values"))
      else array(select jsonb_array_elements_text(v_value."values")) end;
    if not new.operands <@ v_choices then
      perform app.link_error('route_rule_invalid', 'rules.operands',
        format('%s only takes: %s.', v_value.name, array_to_string(v_choices, ', ')));
    end if;
  end if;
  return new;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. Cache invalidation: a route or a rule changed changes its link.

create function app.alias_routes_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'alias_routes' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.aliases a
      where a.id in (select n.alias_id from new_rows n union select o.alias_id from old_rows o)));
  else
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.alias_routes r
      join public.aliases a on a.id = r.alias_id
      where r.id in (select n.route_id from new_rows n union select o.route_id from old_rows o)));
  end if;
  return null;
end;
$$;

-- Transition tables cannot serve several events at once: one trigger per event, each naming
-- the tables it has (the other one is an empty stand-in).
create function app.alias_routes_announce_inserts() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'alias_routes' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.aliases a where a.id in (select n.alias_id from new_rows n)));
  else
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.alias_routes r join public.aliases a on a.id = r.alias_id
      where r.id in (select n.route_id from new_rows n)));
  end if;
  return null;
end;
$$;

create function app.alias_routes_announce_deletes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'alias_routes' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.aliases a where a.id in (select o.alias_id from old_rows o)));
  else
    -- A rule deleted with its route (cascade) finds no route any more: the route's own
    -- trigger has announced the link.
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.alias_routes r join public.aliases a on a.id = r.alias_id
      where r.id in (select o.route_id from old_rows o)));
  end if;
  return null;
end;
$$;

create trigger alias_routes_announce_inserts after insert on public.alias_routes
  referencing new table as new_rows
  for each statement execute function app.alias_routes_announce_inserts();
create trigger alias_routes_announce_updates after update on public.alias_routes
  referencing old table as old_rows new table as new_rows
  for each statement execute function app.alias_routes_announce_changes();
create trigger alias_routes_announce_deletes after delete on public.alias_routes
  referencing old table as old_rows
  for each statement execute function app.alias_routes_announce_deletes();
create trigger alias_route_rules_announce_inserts after insert on public.alias_route_rules
  referencing new table as new_rows
  for each statement execute function app.alias_routes_announce_inserts();
create trigger alias_route_rules_announce_updates after update on public.alias_route_rules
  referencing old table as old_rows new table as new_rows
  for each statement execute function app.alias_routes_announce_changes();
create trigger alias_route_rules_announce_deletes after delete on public.alias_route_rules
  referencing old table as old_rows
  for each statement execute function app.alias_routes_announce_deletes();

-- ---------------------------------------------------------------------------------------------
-- 3. Resolving links with their routes.

-- A link's routes as `r` evaluates them (shared/src/routing.ts's RedirectRoute), in order; null
-- when it has none. Routes whose URL the destination rule refuses today are left out.
create function app.link_routes(p_alias_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_agg(jsonb_build_object(
      'id', r.id, 'url', r.url, 'match', r.url_condition_id,
      'rules', coalesce((
        select jsonb_agg(jsonb_build_object('value', u.value_id, 'condition', u.condition_id,
            'operation', u.operation_id, 'operands', to_jsonb(u.operands), 'argument', u.argument)
          order by u.position)
        from public.alias_route_rules u where u.route_id = r.id), '[]'::jsonb))
    order by r.position)
  from public.alias_routes r
  where r.alias_id = p_alias_id
    and (select v.code from app.judge_destination(r.url) v) is null
$$;

-- A link's clicks so far, robots excluded: the rolled-up hours and the raw clicks after them.
-- Asked only for links with a rule on "Number of clicks"; `r` adds the redirects it makes
-- itself until it loads the link again (its cache keeps a link a minute at most).
create function app.link_click_count(p_alias_id uuid) returns bigint
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select sum(s.clicks - s.bot_clicks) from public.click_stats_hourly s
      where s.alias_id = p_alias_id and s.hour < m.rolled_until), 0)
    + (select count(*) from public.clicks c
      where c.alias_id = p_alias_id and c.time >= m.rolled_until and not c.is_bot)
  from app.click_rollup_state m
$$;

-- app.resolve_short_links of migration 002200 with the routes (and, for rules on the number of
-- clicks, the link's clicks) added.
drop function app.resolve_short_links(text[], text[]);
create function app.resolve_short_links(p_domains text[], p_aliases text[])
returns table (
  domain text,
  alias text,
  domain_usable boolean,
  redirect_status smallint,
  root_redirect_url text,
  not_found_redirect_url text,
  alias_id uuid,
  account_id uuid,
  alias_status text,
  expires_at timestamptz,
  url text,
  url_status text,
  destination_banned boolean,
  routes jsonb,
  clicks bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with wanted as (
      select distinct k.domain, k.alias
      from unnest(p_domains, p_aliases) as k(domain, alias)
      where k.domain is not null and k.alias is not null
    ),
    domains as materialized (
      select d.id, d.domain::text as domain,
        not (d.is_disabled or d.is_deleted or d.is_blocked)
          and d.verification_status = 'verified' as usable,
        d.redirect_status,
        case when (select v.code from app.judge_destination(d.root_redirect_url) v) is null
          then d.root_redirect_url::text end as root_redirect_url,
        case when (select v.code from app.judge_destination(d.not_found_redirect_url) v) is null
          then d.not_found_redirect_url::text end as not_found_redirect_url
      from public.domains d
      where d.domain in (select w.domain from wanted w)
    )
    select w.domain, w.alias, d.usable, d.redirect_status, d.root_redirect_url,
      d.not_found_redirect_url,
      a.id, a.account_id, a.status, a.expires_at, l.url, l.status,
      l.id is not null and c.url_md5 is distinct from md5(l.url)
        and (select v.code from app.judge_destination(l.url) v) is not null,
      -- Most links have no route: the index on alias_routes (alias_id, position) answers that.
      case when a.id is not null
        and exists (select 1 from public.alias_routes r where r.alias_id = a.id)
        then app.link_routes(a.id) end,
      case when a.id is not null and exists (
          select 1 from public.alias_routes r
          join public.alias_route_rules u on u.route_id = r.id
          where r.alias_id = a.id and u.value_id = 'clicks')
        then app.link_click_count(a.id) end
    from wanted w
    join domains d on d.domain = w.domain
    -- citext's equality lives in schema extensions, outside this function's search path.
    left join public.aliases a on a.domain_id = d.id
      and a.alias operator(extensions.=) w.alias::extensions.citext and w.alias <> ''
    left join public.long_urls l on l.id = a.long_url_id
    left join app.destination_checks c on c.long_url_id = l.id;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. Clicks know their route.

-- No foreign key: a partitioned click history outlives the routes it names (a removed route's
-- clicks stay counted under its id).
alter table public.clicks add column route_id uuid;
alter type app.click_row add attribute route_id uuid;

-- app.record_clicks of migration 001100, with "route_id" read from each click (kept only when
-- it is a route of the click's link; a route removed meanwhile leaves the click on the link's
-- destination).
create or replace function app.record_clicks(p_clicks json)
returns table (account_id uuid, redirects_blocked boolean)
language plpgsql volatile security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  v_month timestamptz := app.usage_month();
  v_batch app.click_row[];
  v_accounts uuid[];
  v_counts bigint[];
  v_tracked_accounts uuid[];
  v_tracked bigint[];
  v_all_tracked boolean := true;
  v_blocked_accounts uuid[];
  v_blocked boolean[];
  v_rolled_until timestamptz;
  v_late_from timestamptz;
  v_late_to timestamptz;
begin
  if p_clicks is null or json_typeof(p_clicks) <> 'array' then
    raise exception 'record_clicks: expected a JSON array of clicks' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock_shared(app.click_rollup_lock_key());

  select array_agg(row(c.time, c.alias_id, a.account_id,
      case when c.country ~ '^[A-Z]{2}$' then c.country end,
      case when c.device in ('desktop', 'mobile', 'tablet', 'other') then c.device else 'other' end,
      nullif(left(c.browser, 50), ''), nullif(left(c.os, 50), ''),
      nullif(left(lower(c.referrer_host), 255), ''),
      coalesce(c.is_bot, false), coalesce(c.is_qr, false),
      -- Not ~ '^[0-9a-f]{64}$': a counted repetition that long costs the regex engine dearly.
      case when length(c.ip_hash) = 64 and c.ip_hash !~ '[^0-9a-f]' then decode(c.ip_hash, 'hex') end,
      r.id
    )::app.click_row)
  into v_batch
  from json_to_recordset(p_clicks) as c(time timestamptz, alias_id uuid, country text,
    device text, browser text, os text, referrer_host text, is_bot boolean, is_qr boolean,
    ip_hash text, route_id uuid)
  join public.aliases a on a.id = c.alias_id
  left join public.alias_routes r on r.id = c.route_id and r.alias_id = c.alias_id
  where c.time is not null;
  if v_batch is null then
    return;
  end if;

  select array_agg(x.account_id order by x.account_id), array_agg(x.n order by x.account_id)
  into v_accounts, v_counts
  from (
    select b.account_id, count(*) as n from unnest(v_batch) as b
    where b.account_id is not null
    group by b.account_id
  ) as x;

  if v_accounts is not null then
    -- Counter rows exist and are locked in one order, so concurrent writers cannot deadlock.
    insert into public.account_usage (account_id, name, period_starts_at)
    select u.id, n.name, v_month
    from unnest(v_accounts) as u(id)
    cross join (values ('max_redirects'), ('max_trackable_clicks')) as n(name)
    order by 1, 2
    on conflict on constraint account_usage_pkey do nothing;
    perform 1 from public.account_usage u
    where u.account_id = any (v_accounts) and u.name in ('max_redirects', 'max_trackable_clicks')
    order by u.account_id, u.name
    for update;

    with batch as (
      select b.account_id, b.n from unnest(v_accounts, v_counts) as b(account_id, n)
    ),
    state as (
      select b.account_id, b.n, u.name, u.overage_enabled,
        case when u.period_starts_at is null or u.period_starts_at >= v_month then u.used else 0 end
          as used,
        app.account_limit(b.account_id, u.name) as limit_value
      from batch b
      join public.account_usage u on u.account_id = b.account_id
        and u.name in ('max_redirects', 'max_trackable_clicks')
    ),
    added as (
      select s.*,
        case when s.name = 'max_trackable_clicks' and s.limit_value is not null
            and not s.overage_enabled
          then least(s.n, greatest(s.limit_value - s.used, 0))
          else s.n end as added
      from state s
    ),
    updated as (
      update public.account_usage u
      set used = x.used + x.added,
        period_starts_at = v_month,
        overage = case when x.limit_value is null then 0
          else greatest(x.used + x.added - x.limit_value, 0) end
      from added x
      where u.account_id = x.account_id and u.name = x.name
      returning u.account_id, u.name, u.used, u.overage_enabled, x.limit_value, x.n, x.added
    ),
    tracked as (
      select t.account_id, t.n, t.added from updated t where t.name = 'max_trackable_clicks'
    ),
    blocked as (
      select t.account_id,
        t.limit_value is not null and not t.overage_enabled and t.used >= t.limit_value as blocked
      from updated t where t.name = 'max_redirects'
    )
    select (select array_agg(t.account_id) from tracked t), (select array_agg(t.added) from tracked t),
      (select coalesce(bool_and(t.added = t.n), true) from tracked t),
      (select array_agg(b.account_id order by b.account_id) from blocked b),
      (select array_agg(b.blocked order by b.account_id) from blocked b)
    into v_tracked_accounts, v_tracked, v_all_tracked, v_blocked_accounts, v_blocked;
  end if;

  if v_all_tracked then
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash, route_id)
    select b.* from unnest(v_batch) as b;
  else
    -- Some account is past its trackable clicks: only its earliest clicks that fit are kept.
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash, route_id)
    select x.time, x.alias_id, x.account_id, x.country, x.device, x.browser, x.os,
      x.referrer_host, x.is_bot, x.is_qr, x.ip_hash, x.route_id
    from (
      select b.*, row_number() over (partition by b.account_id order by b.time) as rank
      from unnest(v_batch) as b
    ) as x
    left join unnest(v_tracked_accounts, v_tracked) as t(account_id, tracked)
      on t.account_id = x.account_id
    where x.account_id is null or x.rank <= t.tracked;
  end if;

  -- A batch from before the mark (a write retried across an hour's end) rebuilds its hours.
  select s.rolled_until into v_rolled_until from app.click_rollup_state s;
  select min(b.time), max(b.time) into v_late_from, v_late_to
  from unnest(v_batch) as b
  where b.time < v_rolled_until;
  if v_late_from is not null then
    perform app.rollup_clicks(v_late_from, v_late_to + interval '1 microsecond');
  end if;

  return query
    select b.account_id, b.blocked from unnest(v_blocked_accounts, v_blocked) as b(account_id, blocked);
end;
$$;

-- A link's clicks per route over the period, bots excluded: [{route_id, url, position, clicks}],
-- route_id null for the link's own destination, url and position null for a removed route.
-- Read from the raw clicks (index on (alias_id, time)): the hourly rollups carry no route.
create function app.route_breakdown(p_alias_id uuid, p_from timestamptz, p_to timestamptz)
returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('route_id', x.route_id, 'url', r.url,
      'position', r.position, 'clicks', x.clicks) order by x.clicks desc, r.position), '[]')
  from (
    select c.route_id, count(*) as clicks
    from public.clicks c
    where c.alias_id = p_alias_id and c.time >= p_from and c.time < p_to and not c.is_bot
    group by c.route_id
  ) as x
  left join public.alias_routes r on r.id = x.route_id
$$;

-- public.link_analytics of migration 001110 with the breakdown by route.
create or replace function public.link_analytics(p_alias_id uuid, p_period text default 'last_24_hour')
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_link record;
  v_interval interval := app.analytics_interval(p_period);
begin
  select * into v_link from app.readable_link(p_alias_id);
  perform app.require_analytics(v_link.feature_account_id, v_interval);
  return jsonb_build_object('alias_id', v_link.alias_id, 'domain', v_link.domain,
      'alias', v_link.alias,
      'routes', app.route_breakdown(v_link.alias_id, now() - v_interval, now()))
    || app.period_analytics('alias_id', v_link.alias_id, p_period);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 5. The builder's RPCs.

-- The spec's "Alias-route builder data" (GET routes/init), for callers with redirect_routes on
-- an account where they manage links; others get feature_not_allowed.
create function public.route_builder_init() returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from app.accounts_with_permission_and_feature('links.read', 'redirect_routes') a(id)
    where a.id in (select app.accounts_with_permission('links.manage'))
      or a.id in (select app.accounts_with_permission('links.create'))
  ) then
    perform app.link_error('feature_not_allowed');
  end if;
  return jsonb_build_object(
    'values', (select jsonb_agg(jsonb_build_object('id', v.id, 'name', v.name, 'type', v.type,
        'values', v."values", 'custom_values', v.custom_values, 'is_assoc', v.is_assoc,
        'argument', v.argument) order by v.name) from public.route_values v),
    'conditions', (select jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name,
        'has_operations', c.has_operations) order by c.id) from public.route_conditions c),
    'operations', (select jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name,
        'types', to_jsonb(o.types), 'support_list', o.support_list) order by o.id)
      from public.route_operations o),
    'urls_conditions', (select jsonb_agg(jsonb_build_object('id', u.id, 'name', u.name)
        order by u.id) from public.route_url_conditions u));
end;
$$;
comment on function public.route_builder_init() is
  'The alias-route builder data: values, conditions, operations, urls_conditions.';

-- Replaces a link's routes with p_routes (answers how many it saved), a JSON array in order of
--   {"url", "match" ('all'|'any'), "rules": [{"value", "condition", "operation", "operands",
--    "argument"}]}.
-- Security invoker: the tables' policies decide (links.manage or its creator, feature
-- redirect_routes); their triggers judge each URL and rule. All or nothing.
create function public.save_alias_routes(p_alias_id uuid, p_routes jsonb) returns integer
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_account_id uuid;
  v_route jsonb;
  v_rule jsonb;
  v_route_id uuid;
  v_route_position integer := 0;
  v_rule_position integer;
begin
  if p_routes is null or jsonb_typeof(p_routes) <> 'array' then
    perform app.link_error('route_rule_invalid', 'routes', 'Routes must be a list.');
  end if;
  if jsonb_array_length(p_routes) > 50 then
    perform app.link_error('route_rule_invalid', 'routes', 'A link takes at most 50 routes.');
  end if;
  if p_alias_id not in (select app.manageable_alias_ids_with_feature('redirect_routes')) then
    perform app.link_error('feature_not_allowed');
  end if;
  select a.account_id into v_account_id from public.aliases a where a.id = p_alias_id;

  delete from public.alias_routes r where r.alias_id = p_alias_id;
  for v_route in select * from jsonb_array_elements(p_routes) loop
    if jsonb_typeof(v_route) <> 'object' or jsonb_typeof(v_route -> 'rules') <> 'array'
      or jsonb_array_length(v_route -> 'rules') > 20 then
      perform app.link_error('route_rule_invalid', 'routes',
        'Each route needs a URL and at most 20 rules.');
    end if;
    insert into public.alias_routes (alias_id, account_id, position, url, url_condition_id)
    values (p_alias_id, v_account_id, v_route_position, v_route ->> 'url',
      coalesce(v_route ->> 'match', 'all'))
    returning id into v_route_id;
    v_rule_position := 0;
    for v_rule in select * from jsonb_array_elements(v_route -> 'rules') loop
      insert into public.alias_route_rules (route_id, account_id, position, value_id,
        condition_id, operation_id, operands, argument)
      values (v_route_id, v_account_id, v_rule_position, v_rule ->> 'value',
        v_rule ->> 'condition', nullif(v_rule ->> 'operation', ''),
        coalesce(array(select jsonb_array_elements_text(
          case when jsonb_typeof(v_rule -> 'operands') = 'array' then v_rule -> 'operands'
            else '[]'::jsonb end)), '{}'),
        nullif(btrim(v_rule ->> 'argument'), ''));
      v_rule_position := v_rule_position + 1;
    end loop;
    v_route_position := v_route_position + 1;
  end loop;
  return v_route_position;
end;
$$;
comment on function public.save_alias_routes(uuid, jsonb) is
  'Replaces a link''s redirect routes (in order) with the given ones, all or nothing.';

grant execute on function app.link_routes(uuid), app.link_click_count(uuid),
  app.resolve_short_links(text[], text[]) to service_role;
revoke execute on function public.route_builder_init(), public.save_alias_routes(uuid, jsonb)
  from public, anon;
grant execute on function public.route_builder_init(), public.save_alias_routes(uuid, jsonb)
  to authenticated, service_role;
revoke execute on all functions in schema app from public;

-- ---------------------------------------------------------------------------------------------
-- 6. The portal's preview page (/preview/deprecated/{alias}/{addPath}): where a short link goes,
-- for anyone (the short domain's own preview, `/{alias}+`, tells the same to anyone). Reads only:
-- a preview never counts a click. Without p_domain, the first common domain open to guests (the
-- one the portal shortens on by default). The destination is answered only for a link that
-- would redirect there; otherwise `state` says why not, and `safe` is false for a destination
-- that is banned or that the destination rule refuses.
create function public.preview_link(p_alias text, p_domain text default null)
returns table (domain text, alias text, state text, safe boolean, url text, host text)
language sql stable security definer
set search_path = ''
as $$
  with d as (
    select d.id, d.domain::text as domain
    from public.domains d
    where not (d.is_disabled or d.is_deleted or d.is_blocked)
      and d.verification_status = 'verified'
      and (case when p_domain is null then d.kind = 'common' and d.allow_for_guests
        else d.domain = lower(p_domain) end)
    order by d.created_at, d.domain
    limit 1
  ),
  link as (
    select d.domain, a.alias::text as alias, a.status, a.expires_at, l.url, l.host,
      l.status as url_status,
      coalesce(app.is_domain_banned(l.host), false)
        or (select v.code from app.judge_destination(l.url) v) is not null as refused
    from d
    join public.aliases a on a.domain_id = d.id
      and a.alias operator(extensions.=) p_alias::extensions.citext
    join public.long_urls l on l.id = a.long_url_id
  ),
  judged as (
    select k.*, case
        when k.status in ('deleted') then 'not_found'
        when k.status = 'terminated' or k.url_status = 'terminated' or k.refused then 'blocked'
        when k.status = 'archived' or k.url_status = 'inactive' then 'inactive'
        when k.expires_at is not null and k.expires_at <= now() then 'expired'
        else 'active' end as state
    from link k
  )
  select j.domain, j.alias, j.state, not j.refused and j.state <> 'blocked',
    case when j.state = 'active' then j.url end,
    case when j.state <> 'not_found' then j.host end
  from judged j
$$;
comment on function public.preview_link(text, text) is
  'Where a short link goes (the preview page): destination, host, whether it is safe; counts nothing.';
revoke execute on function public.preview_link(text, text) from public;
grant execute on function public.preview_link(text, text) to anon, authenticated, service_role;
