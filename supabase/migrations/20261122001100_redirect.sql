-- The redirector's side of the database (edge function `r`):
--
-- 1. Cache invalidation, the database half of the contract in
--    supabase/functions/_shared/clicks/cache.ts: a one-row change counter app.link_cache_epoch,
--    bumped by statement triggers on aliases, long URLs, domains and banned domains, which also
--    pg_notify('link_cache', {"epoch": n, "key": "<domain>/<alias>"}) per changed link (one
--    notification per epoch step, so a listener can tell a gap from a duplicate). Changes that
--    touch many links at once (a domain, a banned domain, more than 100 links in one statement)
--    send one notification without a key: "drop everything". Domain changes are also announced
--    on 'short_domains' (the local gateway's list of hosts it routes to `r`), IP blocks on
--    'ip_blocks'.
-- 2. app.resolve_short_links: everything a redirect needs about a batch of (domain, alias)
--    pairs in one round trip.
-- 3. Plan limits on redirects and trackable clicks, counted per UTC calendar month in
--    public.account_usage (names max_redirects and max_trackable_clicks):
--    - max_redirects: once reached, the account's links answer a "limit reached" page instead
--      of redirecting, unless the account turned overage on (then the excess is counted in
--      account_usage.overage). The redirector asks once per account (app.redirects_blocked)
--      and learns the new state from each batch it writes, so one instance may overshoot by at
--      most the redirects of one batch; a changed limit or overage switch is announced on
--      'account_limits'.
--    - max_trackable_clicks: past it, redirects still work but clicks are no longer recorded
--      (exact: decided here, per row), unless overage is on.
--    Guests' links (no account) have no limits.
-- 4. app.record_clicks: one batch of clicks from the redirector, written set-based (one insert)
--    with the counters above, in one transaction.
-- 5. Rollup bookkeeping: hours before app.click_rollup_state.rolled_until are rolled up in
--    public.click_stats_hourly / account_click_stats_hourly; later hours are read from the raw
--    clicks by the analytics RPCs (migration 001110), so the open hour never lags.
--    app.advance_click_rollups (called by the redirector when an hour closes) moves the mark; a
--    batch that brings clicks older than the mark (a retried write) rebuilds their hours.

-- The spec's default is a temporary redirect; 301 only where a domain asks for it.
alter table public.domains alter column redirect_status set default 302;

-- ---------------------------------------------------------------------------------------------
-- 1. Cache invalidation.

create table app.link_cache_epoch (
  singleton boolean primary key default true check (singleton),
  epoch bigint not null default 0 check (epoch >= 0)
);
comment on table app.link_cache_epoch is
  'Counts changes to what redirects read; edge functions compare it to drop stale cache entries.';
insert into app.link_cache_epoch default values;
alter table app.link_cache_epoch enable row level security;
revoke all on app.link_cache_epoch from public, anon, authenticated;
grant select on app.link_cache_epoch to service_role;

-- Bumps the epoch and notifies: one step per key (at most 100), or one step and no key (null
-- keys, or too many) meaning that anything may have changed. NOTIFY is delivered at commit, in
-- commit order; the row lock on the epoch orders concurrent writers the same way.
create function app.announce_link_changes(p_keys text[]) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_keys text[] := array(select distinct k from unnest(p_keys) as k where k is not null order by 1);
  v_count integer := cardinality(v_keys);
  v_last bigint;
begin
  if p_keys is not null and v_count = 0 then
    return;
  end if;
  if p_keys is null or v_count > 100 then
    update app.link_cache_epoch set epoch = epoch + 1 returning epoch into v_last;
    perform pg_notify('link_cache', json_build_object('epoch', v_last)::text);
    return;
  end if;
  update app.link_cache_epoch set epoch = epoch + v_count returning epoch into v_last;
  for i in 1 .. v_count loop
    perform pg_notify('link_cache',
      json_build_object('epoch', v_last - v_count + i, 'key', v_keys[i])::text);
  end loop;
end;
$$;

-- The cache key of a link: its domain and its alias in lower case (aliases compare without case).
create function app.link_cache_key(p_domain_id uuid, p_alias text) returns text
language sql stable security definer
set search_path = ''
as $$
  select d.domain || '/' || lower(p_alias) from public.domains d where d.id = p_domain_id
$$;

create function app.aliases_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(n.domain_id, n.alias::text) from new_aliases n));
  elsif tg_op = 'DELETE' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(o.domain_id, o.alias::text) from old_aliases o));
  else
    -- Only what a redirect reads; edits of a description or tags are not announced.
    perform app.announce_link_changes(array(
      select k
      from old_aliases o
      join new_aliases n on n.id = o.id
      cross join lateral (values (app.link_cache_key(o.domain_id, o.alias::text)),
        (app.link_cache_key(n.domain_id, n.alias::text))) as keys(k)
      where (o.alias, o.domain_id, o.status, o.expires_at, o.long_url_id, o.account_id)
        is distinct from (n.alias, n.domain_id, n.status, n.expires_at, n.long_url_id, n.account_id)
    ));
  end if;
  return null;
end;
$$;

create trigger aliases_announce_inserts after insert on public.aliases
  referencing new table as new_aliases
  for each statement execute function app.aliases_announce_changes();
create trigger aliases_announce_updates after update on public.aliases
  referencing old table as old_aliases new table as new_aliases
  for each statement execute function app.aliases_announce_changes();
create trigger aliases_announce_deletes after delete on public.aliases
  referencing old table as old_aliases
  for each statement execute function app.aliases_announce_changes();

-- A changed destination (or its status) changes every link that points at it.
create function app.long_urls_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform app.announce_link_changes(array(
    select app.link_cache_key(a.domain_id, a.alias::text)
    from old_long_urls o
    join new_long_urls n on n.id = o.id
    join public.aliases a on a.long_url_id = n.id
    where (o.url, o.status) is distinct from (n.url, n.status)
  ));
  return null;
end;
$$;

create trigger long_urls_announce_updates after update on public.long_urls
  referencing old table as old_long_urls new table as new_long_urls
  for each statement execute function app.long_urls_announce_changes();

-- Domains and banned domains change many links at once: everything is dropped.
create function app.announce_all_link_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform app.announce_link_changes(null);
  if tg_table_name = 'domains' then
    perform pg_notify('short_domains', '');
  end if;
  return null;
end;
$$;

create trigger domains_announce_changes after insert or update or delete on public.domains
  for each statement execute function app.announce_all_link_changes();
create trigger banned_domains_announce_changes
  after insert or update or delete on public.banned_domains
  for each statement execute function app.announce_all_link_changes();

create function app.ip_blocks_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform pg_notify('ip_blocks', '');
  return null;
end;
$$;

create trigger ip_blocks_announce_changes after insert or update or delete on public.ip_blocks
  for each statement execute function app.ip_blocks_announce_changes();

-- ---------------------------------------------------------------------------------------------
-- 3. Usage counters.

-- app.account_limit (migration 000120) as it was, except that the account's price is looked up
-- once per call (an InitPlan) rather than once per plan_prices row the scan filters: the
-- redirector asks for two limits per account in every click batch, and on a loaded machine each
-- price lookup costs milliseconds.
create or replace function app.account_limit(p_account_id uuid, p_option text) returns bigint
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_override bigint;
begin
  if p_option is null or not p_option = any (app.plan_count_options()) then
    raise exception 'unknown limit option "%"', p_option using errcode = '22023';
  end if;
  select u."limit" into v_override
  from public.account_usage u
  where u.account_id = p_account_id and u.name = p_option;
  if v_override is not null then
    return v_override;
  end if;
  return (
    select (pp.options ->> p_option)::bigint
    from public.plan_prices pp
    where pp.id = (select app.account_price_id(p_account_id))
  );
end;
$$;

-- The first instant of the UTC calendar month the usage counters count in.
create function app.usage_month() returns timestamptz
language sql stable security definer
set search_path = ''
as $$
  select date_trunc('month', now(), 'UTC')
$$;

-- True when the account's links must stop redirecting: a max_redirects limit (plan or staff
-- override) reached this month without overage turned on.
create function app.redirects_blocked(p_account_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((
    select l.value is not null
      and not coalesce(u.overage_enabled, false)
      and coalesce(case when u.period_starts_at is null or u.period_starts_at >= app.usage_month()
        then u.used end, 0) >= l.value
    from (select app.account_limit(p_account_id, 'max_redirects') as value) as l
    left join public.account_usage u on u.account_id = p_account_id and u.name = 'max_redirects'
  ), false)
$$;

-- A limit or overage switch of max_redirects changed (staff, the account holder): announced on
-- 'account_limits' with the account's id, so that a redirector that learned the account is out
-- of redirects asks again at once. Counting (used) is not announced: the batch that counts
-- answers the new state itself.
create function app.account_limits_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform pg_notify('account_limits', coalesce(new.account_id, old.account_id)::text);
  return null;
end;
$$;

create trigger account_usage_announce_inserts after insert on public.account_usage
  for each row when (new.name = 'max_redirects')
  execute function app.account_limits_announce_changes();
create trigger account_usage_announce_updates after update on public.account_usage
  for each row when (new.name = 'max_redirects'
    and (old."limit", old.overage_enabled) is distinct from (new."limit", new.overage_enabled))
  execute function app.account_limits_announce_changes();
create trigger account_usage_announce_deletes after delete on public.account_usage
  for each row when (old.name = 'max_redirects')
  execute function app.account_limits_announce_changes();

-- ---------------------------------------------------------------------------------------------
-- 2. Resolving links.

-- Everything a redirect needs for each (domain, alias) pair asked for: the domain (no row when
-- the host is not a domain of ours), the link if the alias exists on it (alias_id is then not
-- null), its destination, and whether the destination's host is banned. An empty alias asks for
-- the domain only (its root). Whether the link's account may still redirect is asked apart
-- (app.redirects_blocked), once per account, not once per lookup.
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
  destination_banned boolean
)
-- plpgsql rather than sql: its plan is prepared once per connection, not planned per call.
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select w.domain, w.alias,
      not (d.is_disabled or d.is_deleted or d.is_blocked) and d.verification_status = 'verified',
      d.redirect_status, d.root_redirect_url::text, d.not_found_redirect_url::text,
      a.id, a.account_id, a.status, a.expires_at, l.url, l.status,
      coalesce(app.is_domain_banned(l.host), false)
    from (
      select distinct k.domain, k.alias
      from unnest(p_domains, p_aliases) as k(domain, alias)
      where k.domain is not null and k.alias is not null
    ) as w
    join public.domains d on d.domain = w.domain
    -- citext's equality lives in schema extensions, outside this function's search path.
    left join public.aliases a on a.domain_id = d.id
      and a.alias operator(extensions.=) w.alias::extensions.citext and w.alias <> ''
    left join public.long_urls l on l.id = a.long_url_id;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 5. Rollup bookkeeping (before record_clicks, which keeps it true).

create table app.click_rollup_state (
  singleton boolean primary key default true check (singleton),
  -- Every hour before this instant is rolled up; clicks from it on are read raw.
  rolled_until timestamptz not null
    check (rolled_until = date_bin('1 hour', rolled_until, timestamptz '2000-01-01 00:00:00+00'))
);
comment on table app.click_rollup_state is
  'How far the hourly click rollups are complete; analytics read raw clicks after it.';
-- The seed and earlier data roll up their own hours (app.rollup_clicks); from now on the
-- redirector moves the mark as hours close.
insert into app.click_rollup_state (rolled_until)
values (date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00'));
alter table app.click_rollup_state enable row level security;
revoke all on app.click_rollup_state from public, anon, authenticated;
grant select on app.click_rollup_state to service_role;

-- Writers of clicks hold this lock shared, advance_click_rollups exclusive: a batch is either
-- in before the mark moves (and rolled up with its hour) or sees the new mark (and rebuilds its
-- late hours itself).
create function app.click_rollup_lock_key() returns bigint
language sql immutable security definer
set search_path = ''
as $$
  select hashtextextended('app.click_rollup_state', 0)
$$;

-- Rolls up the hours that closed since the mark and moves it; creates next months' click
-- partitions when a month turns. Returns the new mark.
create function app.advance_click_rollups() returns timestamptz
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz := date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00');
begin
  perform pg_advisory_xact_lock(app.click_rollup_lock_key());
  select s.rolled_until into v_from from app.click_rollup_state s for update;
  if v_to <= v_from then
    return v_from;
  end if;
  perform app.rollup_clicks(v_from, v_to);
  update app.click_rollup_state set rolled_until = v_to;
  if date_trunc('month', v_from, 'UTC') <> date_trunc('month', v_to, 'UTC') then
    perform app.ensure_click_partitions();
  end if;
  return v_to;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. Recording clicks.

-- One click as record_clicks holds it after reading the batch once.
create type app.click_row as (
  time timestamptz,
  alias_id uuid,
  account_id uuid,
  country text,
  device text,
  browser text,
  os text,
  referrer_host text,
  is_bot boolean,
  is_qr boolean,
  ip_hash bytea
);

-- One batch from the redirector: a JSON array of
--   {"time", "alias_id", "country", "device", "browser", "os", "referrer_host", "is_bot",
--    "is_qr", "ip_hash" (64 hex characters)}.
-- The account comes from the link itself; clicks of links deleted meanwhile are dropped, and
-- values outside the columns' rules are cleared rather than failing the whole batch. Counts the
-- redirects and trackable clicks per account and month, inserts the clicks that fit the
-- trackable-click limit (one insert), and answers per account whether it may still redirect.
-- The JSON is read once (reading it is a good part of the cost) into an array of click rows.
create function app.record_clicks(p_clicks json)
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
      case when length(c.ip_hash) = 64 and c.ip_hash !~ '[^0-9a-f]' then decode(c.ip_hash, 'hex') end
    )::app.click_row)
  into v_batch
  from json_to_recordset(p_clicks) as c(time timestamptz, alias_id uuid, country text,
    device text, browser text, os text, referrer_host text, is_bot boolean, is_qr boolean,
    ip_hash text)
  join public.aliases a on a.id = c.alias_id
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
      referrer_host, is_bot, is_qr, ip_hash)
    select b.* from unnest(v_batch) as b;
  else
    -- Some account is past its trackable clicks: only its earliest clicks that fit are kept.
    insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
      referrer_host, is_bot, is_qr, ip_hash)
    select x.time, x.alias_id, x.account_id, x.country, x.device, x.browser, x.os,
      x.referrer_host, x.is_bot, x.is_qr, x.ip_hash
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

-- The redirector runs as the service role (or the database owner); nobody else calls these.
grant execute on function app.announce_link_changes(text[]), app.link_cache_key(uuid, text),
  app.usage_month(), app.redirects_blocked(uuid),
  app.resolve_short_links(text[], text[]), app.click_rollup_lock_key(),
  app.advance_click_rollups(), app.record_clicks(json) to service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
