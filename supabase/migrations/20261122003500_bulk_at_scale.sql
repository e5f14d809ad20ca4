-- Bulk import at scale (issue 17, item 7): 100,000 rows end to end in seconds. Where the time
-- went, per row: the destination rule's stored-form test (a regular expression whose bounded
-- label repetitions, {1,63}, made PostgreSQL's regex engine walk a large automaton: about ten
-- times the cost of the same test written unbounded), run once by app.bulk_create_links and once
-- more by the long_urls row trigger, with three plpgsql calls per row there; then the statement
-- trigger reading every new long URL back by id. The rule itself is unchanged: every row is still judged, in Postgres, by
-- app.judge_destination's logic, and every table write still goes through the triggers.
--
--   app.stored_destination_host   the stored-form test, in one place (judge_destination's fast
--                                 path and bulk_create_links), cheap: unbounded labels and one
--                                 label-length test that only long hosts reach;
--   app.judge_destination         as in 20261122002200, its fast path through the above;
--   app.aliases_announce_changes  a chunk of new links ends the link cache at once, as before,
--                                 without a domain look-up per link first;
--   app.bulk_create_links         as in 20261122002210, but a chunk's rows in stored form have
--                                 only their hosts judged, each distinct host once;
--   long_urls' triggers           the row trigger only for urls not in stored form; the
--                                 statement trigger judges the others' hosts, each distinct
--                                 host once, from the transition table.

-- The host of a URL already in its stored form (the WHATWG serialisation judge_destination
-- stores): http(s), a lower-case name host of two or more labels of at most 63 characters each
-- (the last one not numeric), at most 253 in all, no punycode label (its Unicode form must be
-- judged), no port; a path, query and fragment WHATWG leaves as they are, without dot segments;
-- at most 2048 characters. Null for anything else (judged in full). Labels are matched unbounded
-- and measured apart: {1,63} inside the pattern costs ten times more per URL.
create function app.stored_destination_host(p_url text) returns text
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
    and v_host !~ '(^|\.)xn--'
    and substring(p_url from '^https?://[^/]+(/[^?#]*)') !~* '/(\.|%2e){1,2}(/|$)' then
    return v_host;
  end if;
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The rule (20261122002200), its fast path through app.stored_destination_host.

create or replace function app.judge_destination(
  p_url text, p_tables boolean default true,
  out url text, out host text, out code text, out reason text, out range text
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_text text;
  v_scheme text;
  v_rest text;
  v_authority text;
  v_host_part text;
  v_port text;
  v_tail text;
  v_path text;
  v_query text;
  v_fragment text;
  v_groups integer[];
  v_ip inet;
  v_bytes bytea;
begin
  -- The common case, and what every table write sees again after the RPCs and bulk import
  -- normalised it: a URL already in its stored form (app.stored_destination_host). It is its own
  -- normal form: only what its host names is left to judge.
  host := app.stored_destination_host(p_url);
  if host is not null then
    select * into code, reason from app.host_refusal(host, true, p_tables);
    if code is null then
      url := p_url;
    else
      host := null;
    end if;
    return;
  end if;

  if p_url is null then
    code := 'url_required'; reason := 'empty'; return;
  end if;
  -- C0 controls (NUL cannot be in text), DEL, and the Unicode line breaks (NEL, LS, PS): URL
  -- parsers drop or encode some of them silently, which is how header and log injection slips by.
  if p_url ~ U&'[\0001-\001F\007F\0085\2028\2029]' then
    code := 'url_invalid'; reason := 'control_character'; return;
  end if;
  v_text := regexp_replace(p_url, '^ +| +$', '', 'g');
  if v_text = '' then
    code := 'url_required'; reason := 'empty'; return;
  end if;
  if octet_length(v_text) > 8192 then
    code := 'url_invalid'; reason := 'too_long'; return;
  end if;
  v_scheme := lower(substring(v_text from '^([A-Za-z][A-Za-z0-9+.-]*):'));
  if v_scheme is null then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  if v_scheme not in ('http', 'https') then
    code := 'url_not_allowed'; reason := 'scheme'; return;
  end if;
  -- `http:example.com` and `http:/\example.com` parse, but no one means them.
  if v_text !~* '^https?://' then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  v_rest := substr(v_text, char_length(v_scheme) + 4);
  -- The authority as written, then as a parser reads it (slashes after `//` skipped): parsers
  -- disagree about `\` and `@` in it, and a credential prefix (https://bank.com@evil.example)
  -- exists only to mislead the reader.
  for pass in 1 .. 2 loop
    if pass = 2 then
      v_rest := regexp_replace(v_rest, '^[/\\]+', '');
    end if;
    v_authority := substring(v_rest from '^[^/?#\\]*');
    if substr(v_rest, char_length(v_authority) + 1, 1) = '\' then
      code := 'url_not_allowed'; reason := 'ambiguous_authority'; return;
    end if;
    if position('@' in v_authority) > 0 then
      code := 'url_not_allowed'; reason := 'userinfo'; return;
    end if;
  end loop;
  v_tail := substr(v_rest, char_length(v_authority) + 1);

  -- Host and port.
  if v_authority like '[%' then
    v_host_part := substring(v_authority from '^\[[^\]]*\]');
  else
    v_host_part := substring(v_authority from '^[^:]*');
  end if;
  v_port := substr(v_authority, coalesce(char_length(v_host_part), 0) + 1);
  if v_host_part is null or v_host_part = '' or not (v_port = '' or v_port ~ '^:[0-9]*$')
    or (v_port ~ '[0-9]' and substr(v_port, 2)::numeric > 65535) then
    code := 'url_invalid'; reason := 'malformed'; return;
  end if;
  v_port := case when v_port ~ '[0-9]' then substr(v_port, 2)::numeric::integer::text else '' end;
  if (v_scheme = 'http' and v_port = '80') or (v_scheme = 'https' and v_port = '443') then
    v_port := '';
  end if;

  if v_host_part like '[%' then
    v_groups := app.whatwg_ipv6(substr(v_host_part, 2, char_length(v_host_part) - 2));
    if v_groups is null then
      code := 'url_invalid'; reason := 'malformed'; return;
    end if;
    host := '[' || app.format_ipv6(v_groups) || ']';
    v_ip := coalesce(app.ipv6_embedded_ipv4(v_groups), app.format_ipv6(v_groups)::inet);
  else
    -- Percent-encoded bytes of the host are read as UTF-8 (WHATWG host parsing).
    if position('%' in v_host_part) > 0 then
      if v_host_part ~ '%($|[^0-9A-Fa-f]|.$|.[^0-9A-Fa-f])' then
        code := 'url_invalid'; reason := 'malformed'; return;
      end if;
      select string_agg(case when p like '\%%' then decode(substr(p, 2), 'hex')
          else convert_to(p, 'UTF8') end, ''::bytea order by o)
      into v_bytes
      from regexp_matches(v_host_part, '%[0-9A-Fa-f]{2}|[^%]+', 'g') with ordinality as m(a, o),
        lateral (select a[1] as p) as x;
      begin
        -- Invalid UTF-8 (and NUL) raise here.
        v_host_part := convert_from(v_bytes, 'UTF8');
      exception when character_not_in_repertoire or untranslatable_character then
        code := 'url_invalid'; reason := 'malformed'; return;
      end;
    end if;
    host := lower(normalize(lower(v_host_part), NFKC));
    host := translate(host, U&'\3002\FF0E\FF61', '...');
    -- Forbidden domain code points (WHATWG).
    if host ~ '[\x01-\x20#%/:<>?@\[\\\]^|\x7f]' then
      code := 'url_invalid'; reason := 'malformed'; host := null; return;
    end if;
    host := app.whatwg_ipv4(host);
    if host = 'invalid' then
      code := 'url_invalid'; reason := 'malformed'; host := null; return;
    end if;
    if host is not null then
      v_ip := host::inet;
    else
      host := app.normalise_domain_labels(v_host_part);
      if host is null then
        code := 'url_invalid'; reason := 'malformed'; return;
      end if;
    end if;
  end if;
  if v_ip is not null then
    range := app.ip_range(v_ip);
    if range <> 'public' then
      code := 'url_not_allowed'; reason := 'internal_address'; host := null; return;
    end if;
    range := null;
  end if;
  select * into code, reason from app.host_refusal(host, v_ip is null, p_tables);
  if code is not null then
    host := null; return;
  end if;

  v_path := substring(v_tail from '^[^?#]*');
  v_query := substring(v_tail from '^[^#]*' ) ;
  v_query := substr(v_query, char_length(v_path) + 1);
  v_fragment := substr(v_tail, char_length(v_path) + char_length(v_query) + 1);
  url := v_scheme || '://' || host || case when v_port <> '' then ':' || v_port else '' end
    || app.normalise_url_path(v_path)
    || app.percent_encode(v_query, ' "<>''')
    || case when v_fragment <> '' then '#' || app.percent_encode(substr(v_fragment, 2), ' "<>`')
       else '' end;
  -- Percent-encoding grows the text: the stored form must fit the columns.
  if char_length(url) > 2048 then
    url := null; host := null; code := 'url_invalid'; reason := 'too_long'; return;
  end if;
end;
$$;


-- ---------------------------------------------------------------------------------------------
-- Long URL writes, row by row only where a row needs it. A url in stored form is its own
-- normal form, so the row trigger (app.check_url_column: normalise, judge the text) now runs
-- only for the others; what a stored-form url's host names (app.host_refusal: internal names)
-- is judged by the statement trigger, once per distinct host, before our own and banned domains
-- (app.hosts_refused) as before, for every row the statement wrote. The rule's verdict on each
-- row is the one app.judge_destination gives; a refusal still refuses the whole statement.

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
  select v.code into v_code
  from (select distinct h from unnest(v_hosts) as h where h !~ '^\[') as d(host)
  cross join lateral app.host_refusal(d.host, true, false) as v
  where v.code is not null
  limit 1;
  if v_code is null then
    select r.code into v_code
    from app.hosts_refused(array(select distinct h from unnest(v_hosts) as h)) as r
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

drop trigger long_urls_check_destination on public.long_urls;
create trigger long_urls_check_destination before insert or update of url on public.long_urls
  for each row when (app.stored_destination_host(new.url) is null)
  execute function app.check_url_column();

-- ---------------------------------------------------------------------------------------------
-- The redirect's link cache told of new links (20261122001100): a statement of more than 100 new
-- links (a bulk chunk) ends every cached link at once, as app.announce_link_changes does with
-- more than 100 keys, without computing a key per link first (app.link_cache_key looks up the
-- domain once per call). The keys of inserted links are distinct and never null (one alias per
-- domain, compared without case; the domain exists), so their count is the rows'. Updates and
-- deletes as before.

create or replace function app.aliases_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if (select count(*) from new_aliases) > 100 then
      perform app.announce_link_changes(null);
    else
      perform app.announce_link_changes(array(
        select app.link_cache_key(n.domain_id, n.alias::text) from new_aliases n));
    end if;
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

-- ---------------------------------------------------------------------------------------------
-- bulk_create_links (20261122002210), the destinations judged set-based. The rows' "domains"
-- are no longer read (nor sent).

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
  -- function sends) has only its host left to judge, and each distinct host of the chunk is
  -- judged once, for what it names (app.host_refusal) and then against our own and banned
  -- domains (app.hosts_refused); any other row is judged in full on its own.
  update pg_temp.bulk_rows r
  set url = coalesce(j.url, r.url),
    host = j.host,
    error_code = j.code,
    error_field = case when j.code is not null then 'url' end
  from pg_temp.bulk_rows b
  cross join lateral app.judge_destination(b.url, false) as j
  where r.row_number = b.row_number and not b.stored;
  update pg_temp.bulk_rows r
  set error_code = h.code, error_field = 'url', host = null
  from (
    select d.host, v.code
    from (select distinct b.host from pg_temp.bulk_rows b where b.stored) as d
    cross join lateral app.host_refusal(d.host, true, false) as v
    where v.code is not null
  ) as h
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

-- The trigger's WHEN clause runs as whoever writes long_urls (staff through the API, the
-- service role; RPCs as their owner). Anonymous callers write no long URL.
grant execute on function app.stored_destination_host(text) to authenticated, service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
