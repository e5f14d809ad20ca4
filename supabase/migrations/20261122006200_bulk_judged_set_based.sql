-- Bulk at scale, again (issue 17, item 7): where a chunk of 5,000 new links still spent its
-- Postgres time beyond the two inserts themselves. Measured per chunk (backend CPU, loaded
-- machine): about 850 ms, of which the long_urls and aliases inserts with their triggers ~650
-- and the destination rule ~230 of it, judged twice (by app.bulk_create_links for per-row errors,
-- then by long_urls' triggers for the table): per row the stored-form test (8 µs, twice), per
-- distinct host a PL/pgSQL call for internal names and three indexed look-ups per name for our
-- own and banned domains (twice). (Each chunk also counted every link of the account for the plan
-- limits; app.link_capacity_left of 20261122006000 reads the counters instead.)
--
-- Same rules, same verdicts, cheaper:
--   app.stored_destination_host   the dot-segment and punycode tests (regular expressions) run
--                                 only on URLs that hold what they look for ('/.', '/%2', 'xn--');
--   app.internal_host_names       the internal-name rule of app.host_refusal, for many hosts in
--                                 one statement (host_refusal now asks it);
--   app.hosts_refused             own and banned domains by joins over every host's names at once
--                                 (one hash or index join instead of two sub-queries per name);
--   app.check_long_url_hosts      long_urls' statement trigger through the two above;
--   app.bulk_create_links         its host judgement through the two above.

-- ---------------------------------------------------------------------------------------------
-- The stored-form test (20261122003500): same verdicts. A dot segment ('/.', '/..', '/%2e' in
-- any case) needs '/.' or '/%2' somewhere in the URL, and a punycode label 'xn--' in the host:
-- without them the regular expressions cannot match, and most URLs have neither.

create or replace function app.stored_destination_host(p_url text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_host text := substring(p_url from '^https?://([^/]+)');
begin
  -- plpgsql rather than sql: a definer sql function is never inlined, and runs its query
  -- through the executor on every call (several times the cost of these expressions).
  if char_length(p_url) <= 2048
    and p_url ~ ('^https?://[a-z0-9_-]+(\.[a-z0-9_-]+)*\.[a-z_-][a-z0-9_-]*'
      || '/[!$%&(-;=@-\[\]^_a-z|~]*(\?[!$%&(-;=?@-\[\]^_a-z|~]*)?(#[!#$%&(-;=?@-\[\]^_a-z|~]*)?$')
    and char_length(v_host) <= 253
    and (char_length(v_host) <= 63 or v_host !~ '[^.]{64}')
    and (position('xn--' in v_host) = 0 or v_host !~ '(^|\.)xn--')
    and ((position('/.' in p_url) = 0 and position('/%2' in p_url) = 0)
      or substring(p_url from '^https?://[^/]+(/[^?#]*)') !~* '/(\.|%2e){1,2}(/|$)') then
    return v_host;
  end if;
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Internal names (20261122002200's app.host_refusal), for many hosts at once: a single label
-- (resolved through the local search domain), a cloud metadata name, or a name under a suffix
-- that only reaches this machine or its network. The hosts given that are such names.

create function app.internal_host_names(p_hosts text[]) returns setof text
language plpgsql immutable strict security definer
set search_path = ''
as $$
begin
  return query
    select distinct h.name
    from unnest(p_hosts) as h(name)
    where position('.' in h.name) = 0
      or h.name in ('metadata.google.internal', 'metadata.goog')
      or h.name ~ '\.(localhost|local|localdomain|internal|arpa)$';
end;
$$;

create or replace function app.host_refusal(
  p_host text, p_is_name boolean, p_tables boolean, out code text, out reason text
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_is_name and exists (select from app.internal_host_names(array[p_host])) then
    code := 'url_not_allowed'; reason := 'internal_host';
  elsif p_tables then
    select r.code, r.reason into code, reason from app.hosts_refused(array[p_host]) as r;
  end if;
end;
$$;

-- Our own domains (common ones and their subdomains, a verified branded or organization domain
-- itself) and banned ones (and their subdomains): every host's names joined at once.
create or replace function app.hosts_refused(p_hosts text[])
returns table (host text, code text, reason text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select x.host,
      case when x.own then 'url_not_allowed' else 'url_banned' end,
      case when x.own then 'own_domain' else 'banned' end
    from (
      select c.host, bool_or(d.id is not null) as own, bool_or(b.id is not null) as banned
      from (
        select h.host, n.name, n.n
        from (select distinct u.host from unnest(p_hosts) as u(host) where u.host is not null) as h
        cross join lateral unnest(app.host_and_parents(h.host)) with ordinality as n(name, n)
      ) as c
      left join public.domains d on d.domain = c.name
        and (d.kind = 'common' or (c.n = 1 and d.verification_status = 'verified'))
      left join public.banned_domains b on b.domain = c.name
      group by c.host
    ) as x
    where x.own or x.banned;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- long_urls' statement trigger (20261122003500), its internal-name test set-based.

create or replace function app.check_long_url_hosts() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_code text;
  v_ids uuid[];
  v_urls text[];
  v_hosts text[];
begin
  -- The rows the statement wrote (read from the transition tables, not back from the table):
  -- every inserted one, the updated ones whose url changed.
  if tg_op = 'INSERT' then
    select array_agg(n.id), array_agg(n.url), array_agg(n.host)
    into v_ids, v_urls, v_hosts
    from new_long_urls n;
  else
    select array_agg(n.id), array_agg(n.url), array_agg(n.host)
    into v_ids, v_urls, v_hosts
    from new_long_urls n join old_long_urls o on o.id = n.id
    where n.url is distinct from o.url;
  end if;
  if coalesce(cardinality(v_ids), 0) = 0 then
    return null;
  end if;
  -- As app.judge_destination orders them: what the host names, then our own domain
  -- (url_not_allowed) before a banned one (url_banned). Names are judged for every host but an
  -- IPv6 address (bracketed; the column keeps only its start): a stored-form url's host is a
  -- name, and any other row's host was judged by the row trigger already, which passes a public
  -- name or an IPv4 address (dotted, never an internal name) the same way again.
  if exists (
    select from app.internal_host_names(array(select h from unnest(v_hosts) as h where h !~ '^\['))
  ) then
    v_code := 'url_not_allowed';
  else
    select r.code into v_code
    from app.hosts_refused(v_hosts) as r
    order by r.code desc
    limit 1;
  end if;
  if v_code is not null then
    perform app.link_error(v_code);
  end if;
  -- A new long URL has no mark yet (a mark needs its row): a plain insert, no upsert.
  if tg_op = 'INSERT' then
    insert into app.destination_checks (long_url_id, url_md5)
    select w.id, md5(w.url) from unnest(v_ids, v_urls) as w(id, url);
  else
    insert into app.destination_checks (long_url_id, url_md5)
    select w.id, md5(w.url) from unnest(v_ids, v_urls) as w(id, url)
    on conflict (long_url_id) do update set url_md5 = excluded.url_md5;
  end if;
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The room left under the plan's link limits is app.link_capacity_left (20261122006000), which
-- already reads the counters app.check_link_limits reads instead of a count of every link of the
-- account per chunk; this migration leaves it as it is.

-- ---------------------------------------------------------------------------------------------
-- bulk_create_links (20261122003500), the chunk's hosts judged through the set-based functions
-- above. Nothing else changes.

create or replace function app.bulk_create_links(p_job_id uuid, p_rows jsonb, p_refused_rows integer default 0)
returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_job public.bulk_jobs;
  v_domain public.domains;
  v_feature_account_id uuid;
  -- Why this caller may not choose aliases (a code), or null when they may.
  v_alias_refusal text;
  v_tags_allowed boolean;
  v_capacity bigint;
  v_credit_cost integer;
  v_credit_limit bigint;
  v_credits_left bigint;
  v_round integer := 0;
  v_row_count integer;
  v_created integer;
  v_answer jsonb;
begin
  select * into v_job from public.bulk_jobs j
  where j.id = p_job_id and j.created_by = v_uid and j.status in ('pending', 'processing')
  for update;
  if v_job.id is null then
    perform app.bulk_error('bulk_job_not_found');
  end if;
  -- Checked again per chunk: a member removed from the team mid-import stops creating.
  v_feature_account_id := app.check_bulk_allowed(v_job.account_id, v_job.organization_id);
  select * into v_domain from public.domains d where d.id = v_job.domain_id;
  begin
    perform app.check_custom_alias_allowed(v_uid, v_feature_account_id);
  exception when sqlstate 'PT403' then
    v_alias_refusal := sqlerrm;
  end;
  v_tags_allowed := app.account_has_feature(v_feature_account_id, 'use_tags');

  drop table if exists pg_temp.bulk_rows;
  create temp table bulk_rows (
    row_number integer primary key,
    url text not null,
    -- The destination's host once judged; for a row already in stored form, from the start.
    host text,
    -- In stored form (app.stored_destination_host): only its host is left to judge.
    stored boolean not null,
    alias text,
    drawn boolean not null,
    -- For a drawn alias: the function's first draw (randomAlias: 7 base62 characters).
    first_draw text,
    tags text[] not null,
    error_field text,
    error_code text,
    long_url_id uuid,
    alias_id uuid
  ) on commit drop;
  insert into pg_temp.bulk_rows (row_number, url, host, stored, alias, drawn, first_draw, tags)
  select r."row", r.url, r.host, r.host is not null, nullif(btrim(r.alias), ''),
    nullif(btrim(r.alias), '') is null, r.random_alias, coalesce(r.tags, '{}')
  from (
    select j.*, app.stored_destination_host(j.url) as host
    from jsonb_to_recordset(p_rows) as j("row" integer, url text, alias text, random_alias text,
      tags text[])
    -- Kept as a subquery (not flattened), so that the test runs once per row.
    offset 0
  ) as r;
  get diagnostics v_row_count = row_count;
  -- Statistics for the planner: without them it guesses one row and joins the chunk to itself
  -- by nested loops (a million comparisons per thousand rows).
  analyze pg_temp.bulk_rows;

  -- The destination first, by the rule every path shares (app.judge_destination: normalised
  -- form stored, or the row's url error), set-based: a row already in stored form (what the
  -- function sends) has only its host left to judge, and the chunk's distinct hosts are judged
  -- together, for what they name (app.internal_host_names, as app.host_refusal) and then
  -- against our own and banned domains (app.hosts_refused); any other row is judged in full on
  -- its own.
  update pg_temp.bulk_rows r
  set url = coalesce(j.url, r.url),
    host = j.host,
    error_code = j.code,
    error_field = case when j.code is not null then 'url' end
  from pg_temp.bulk_rows b
  cross join lateral app.judge_destination(b.url, false) as j
  where r.row_number = b.row_number and not b.stored;
  update pg_temp.bulk_rows r
  set error_code = 'url_not_allowed', error_field = 'url', host = null
  from app.internal_host_names(array(
    select distinct b.host from pg_temp.bulk_rows b where b.stored
  )) as h(host)
  where r.stored and r.host = h.host;
  update pg_temp.bulk_rows r
  set error_code = h.code, error_field = 'url', host = null
  from app.hosts_refused(array(
    select distinct b.host from pg_temp.bulk_rows b where b.error_code is null
  )) as h
  where r.error_code is null and r.host = h.host;

  -- The other rules of one row, in create_link's order; the first that fails names the row's
  -- error. A chosen alias (app.check_custom_alias_allowed, app.check_alias): allowed for this
  -- caller, well formed, not reserved, free on the domain. Tags need the plan's use_tags (their
  -- format was checked by the function).
  update pg_temp.bulk_rows r
  set error_code = e.code,
    error_field = 'alias'
  from (
    select b.row_number,
      case
        when b.drawn then null
        when v_alias_refusal is not null then v_alias_refusal
        when b.alias !~ '^[A-Za-z0-9_-]{1,50}$' then 'alias_invalid'
        when exists (
          select 1 from public.reserved_aliases ra
          where ra.alias operator(extensions.=) b.alias::extensions.citext
        ) then 'alias_reserved'
        when exists (
          select 1 from public.aliases a
          where a.domain_id = v_job.domain_id
            and a.alias operator(extensions.=) b.alias::extensions.citext
        ) then 'alias_taken'
      end as code
    from pg_temp.bulk_rows b
    where b.error_code is null
  ) as e
  where r.row_number = e.row_number and e.code is not null;
  update pg_temp.bulk_rows r set error_field = 'tags', error_code = 'tags_not_allowed'
  where r.error_code is null and cardinality(r.tags) > 0 and not v_tags_allowed;
  -- A chosen alias may appear once in the file: later rows with it are taken.
  update pg_temp.bulk_rows r set error_field = 'alias', error_code = 'alias_taken'
  from (
    select b.row_number,
      row_number() over (partition by lower(b.alias) order by b.row_number) as nth
    from pg_temp.bulk_rows b where b.error_code is null and not b.drawn
  ) as repeated
  where r.row_number = repeated.row_number and repeated.nth > 1;

  -- Plan limits, then credits: the first rows in file order get what is left.
  v_capacity := app.link_capacity(v_job.account_id, v_domain.kind <> 'common');
  if v_capacity is not null then
    update pg_temp.bulk_rows r set error_field = 'form', error_code = 'plan_limit_reached'
    where r.row_number in (
      select b.row_number from pg_temp.bulk_rows b where b.error_code is null
      order by b.row_number offset v_capacity
    );
  end if;
  v_credit_cost := (select c.credits from public.operation_costs c where c.operation = 'create_link');
  v_credit_limit := app.account_limit(v_job.account_id, 'max_web_credits');
  if v_credit_limit is not null and v_credit_cost > 0 then
    insert into public.account_usage (account_id, name) values (v_job.account_id, 'max_web_credits')
    on conflict (account_id, name) do nothing;
    select v_credit_limit - u.used into v_credits_left from public.account_usage u
    where u.account_id = v_job.account_id and u.name = 'max_web_credits'
    for update;
    update pg_temp.bulk_rows r set error_field = 'form', error_code = 'not_enough_credits'
    where r.row_number in (
      select b.row_number from pg_temp.bulk_rows b where b.error_code is null
      order by b.row_number offset greatest(0, v_credits_left / v_credit_cost)
    );
  end if;

  -- Long URLs: one per destination in the account; a destination staff terminated is refused.
  with destinations as (
    select distinct r.url from pg_temp.bulk_rows r where r.error_code is null
  ), stored as (
    insert into public.long_urls (account_id, url)
    select v_job.account_id, d.url from destinations d
    on conflict (account_id, md5(url)) do update set updated_at = excluded.updated_at
    returning id, url, status
  )
  update pg_temp.bulk_rows r
  set long_url_id = s.id,
    error_field = case when s.status = 'terminated' then 'url' end,
    error_code = case when s.status = 'terminated' then 'url_not_allowed' end
  from stored s
  where s.url = r.url and r.error_code is null;

  -- Aliases: chosen ones as given, the others drawn (first by the function, then again by
  -- app.random_alias, as create_link draws). Each round inserts every pending row whose alias is unique in the round; a drawn alias that
  -- collides (with a link or another row) is drawn again next round, a chosen one that lost a
  -- race with another creator is taken.
  loop
    v_round := v_round + 1;
    with candidates as (
      select r.row_number, r.long_url_id,
        coalesce(
          r.alias,
          case when v_round = 1 and r.first_draw ~ '^[A-Za-z0-9]{7,50}$' then r.first_draw end,
          app.random_alias()
        ) as alias
      from pg_temp.bulk_rows r
      where r.error_code is null and r.alias_id is null
    ), unique_candidates as (
      select distinct on (lower(c.alias)) c.row_number, c.long_url_id, c.alias
      from candidates c
      where not exists (
        select 1 from public.reserved_aliases ra
        where ra.alias operator(extensions.=) c.alias::extensions.citext
      )
      order by lower(c.alias), c.row_number
    ), inserted as (
      insert into public.aliases (long_url_id, account_id, domain_id, alias, is_main, created_by,
        organization_id)
      select c.long_url_id, v_job.account_id, v_job.domain_id, c.alias,
        -- The first alias of a destination is its main one.
        row_number() over (partition by c.long_url_id order by c.row_number) = 1
          and not exists (
            select 1 from public.aliases a where a.long_url_id = c.long_url_id and a.is_main
          ),
        v_uid, v_job.organization_id
      from unique_candidates c
      on conflict do nothing
      returning id, alias
    )
    update pg_temp.bulk_rows r set alias_id = i.id, alias = i.alias::text
    from inserted i
    join unique_candidates c on lower(c.alias) = lower(i.alias::text)
    where r.row_number = c.row_number;

    update pg_temp.bulk_rows r set error_field = 'alias', error_code = 'alias_taken'
    where r.error_code is null and r.alias_id is null and not r.drawn;
    exit when v_round >= 5 or not exists (
      select 1 from pg_temp.bulk_rows r where r.error_code is null and r.alias_id is null
    );
  end loop;
  update pg_temp.bulk_rows r set error_field = 'alias', error_code = 'alias_taken'
  where r.error_code is null and r.alias_id is null;

  -- Tags: the account's tag rows, then the links' (create_link: app.set_link_tags).
  insert into public.tags (account_id, name)
  select distinct v_job.account_id, t.name
  from pg_temp.bulk_rows r cross join unnest(r.tags) as t(name)
  where r.alias_id is not null
  on conflict (account_id, name) do nothing;
  insert into public.alias_tags (alias_id, tag_id, account_id)
  select r.alias_id, g.id, v_job.account_id
  from pg_temp.bulk_rows r
  cross join unnest(r.tags) as t(name)
  join public.tags g on g.account_id = v_job.account_id and g.name = t.name
  where r.alias_id is not null
  on conflict do nothing;

  select count(*) into v_created from pg_temp.bulk_rows r where r.alias_id is not null;
  if v_credits_left is not null then
    update public.account_usage set used = used + v_credit_cost * v_created
    where account_id = v_job.account_id and name = 'max_web_credits';
  end if;
  update public.bulk_jobs
  set status = 'processing', started_at = coalesce(started_at, now()),
    processed = processed + v_row_count + coalesce(p_refused_rows, 0),
    created = created + v_created
  where id = v_job.id;

  select jsonb_build_object(
    -- *.localhost domains are the local stack's; they have no certificate (as app.link_json).
    'short_url_prefix', case when v_domain.domain like '%.localhost' then 'http://' else 'https://' end
      || v_domain.domain || '/',
    'created', coalesce(jsonb_agg(jsonb_build_array(r.row_number, r.alias) order by r.row_number)
      filter (where r.alias_id is not null), '[]'::jsonb),
    'errors', coalesce(jsonb_agg(jsonb_build_array(r.row_number, r.error_field, r.error_code)
      order by r.row_number) filter (where r.error_code is not null), '[]'::jsonb)
  ) into v_answer
  from pg_temp.bulk_rows r;
  drop table pg_temp.bulk_rows;
  return v_answer;
end;
$$;

grant execute on function app.stored_destination_host(text) to authenticated, service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
