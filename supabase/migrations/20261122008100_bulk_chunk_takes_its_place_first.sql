-- A chunk with its place in a bulk job (p_after) now takes the order lock its successor waits on
-- first of all, before it locks the job's row. It took it only after loading its rows into the
-- work table (20261122007400), so a small optimistic chunk sent right after a full one could
-- reach that lock first (the full chunk was still loading 5,000 rows): it then held the lock the
-- full chunk wanted while waiting for the job's row the full chunk held, and Postgres ended one
-- of them after deadlock_timeout. bulk-import sent the loser again, so no job came out wrong, but
-- a job whose last chunk is shorter than the others paid a second and the redone chunk for it.
-- Both now take the order lock before the job's row, in that order, so the two cannot wait on
-- each other there. The row count comes from the array itself (jsonb_array_length), the same
-- count the work table gets. Everything else is as in 20261122007400.

create or replace function app.bulk_create_links(p_job_id uuid, p_rows jsonb, p_refused_rows integer default 0,
  p_after integer default null, p_optimistic boolean default false)
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
  -- The rows left for the limits and credits to decide (optimistic: counted, then checked).
  v_eligible bigint;
  -- The job's key among the chunks' order locks (p_after).
  v_order_key integer := hashtext(p_job_id::text);
  v_created integer;
  v_answer jsonb;
begin
  if p_optimistic and p_after is null then
    raise exception 'app.bulk_create_links: an optimistic chunk needs its place (p_after)';
  end if;
  -- A chunk with its place in the job (p_after: the job's rows before it) holds the lock its
  -- successor waits on (keyed by where the next chunk starts) until it commits or rolls back,
  -- taken before anything else here: a successor that took it first would wait for the job's
  -- row this chunk holds while this chunk waits for the lock (see above).
  if p_after is not null then
    perform pg_advisory_xact_lock(v_order_key,
      p_after + jsonb_array_length(p_rows) + coalesce(p_refused_rows, 0));
  end if;
  -- An optimistic chunk locks the job only once the chunk before it has ended (below).
  if p_optimistic then
    select * into v_job from public.bulk_jobs j
    where j.id = p_job_id and j.created_by = v_uid and j.status in ('pending', 'processing');
  else
    select * into v_job from public.bulk_jobs j
    where j.id = p_job_id and j.created_by = v_uid and j.status in ('pending', 'processing')
    for update;
  end if;
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
    row_number integer not null,
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
    -- The row's long URL was the account's before this chunk's upsert wrote it.
    existed boolean not null default false,
    -- Whether the row's long URL has a main alias already (only one that existed before the
    -- chunk can): its first alias here is then not the main one.
    main_taken boolean not null default false,
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
  -- The work table has no key (see above): a row number given twice would join to both rows.
  -- The callers (bulk-import, the api's bulk) number rows by line; anything else is a bug.
  if (select count(distinct r.row_number) from pg_temp.bulk_rows r) <> v_row_count then
    raise exception 'app.bulk_create_links: row numbers must be distinct';
  end if;
  -- A chunk sent alone checks its place: the chunk before it has committed.
  if p_after is not null and not p_optimistic and v_job.processed <> p_after then
    raise exception using errcode = '40001', message = 'bulk chunk out of order',
      detail = format('the job has %s rows processed, this chunk starts at %s', v_job.processed, p_after);
  end if;
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

  -- Plan limits, then credits: the first rows in file order get what is left. An optimistic
  -- chunk only counts its rows here and checks them once the chunk before it has ended (below).
  v_eligible := (select count(*) from pg_temp.bulk_rows r where r.error_code is null);
  v_credit_cost := (select c.credits from public.operation_costs c where c.operation = 'create_link');
  v_credit_limit := app.account_limit(v_job.account_id, 'max_web_credits');
  if not p_optimistic then
    v_capacity := app.link_capacity(v_job.account_id, v_domain.kind <> 'common');
    if v_capacity is not null then
      update pg_temp.bulk_rows r set error_field = 'form', error_code = 'plan_limit_reached'
      where r.row_number in (
        select b.row_number from pg_temp.bulk_rows b where b.error_code is null
        order by b.row_number offset v_capacity
      );
    end if;
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
  end if;

  -- Long URLs: one per destination in the account; a destination staff terminated is refused.
  with destinations as (
    select distinct r.url from pg_temp.bulk_rows r where r.error_code is null
  ), stored as (
    insert into public.long_urls (account_id, url)
    select v_job.account_id, d.url from destinations d
    on conflict (account_id, md5(url)) do update set updated_at = excluded.updated_at
    -- xmax is 0 on a row version this statement inserted, set on one it updated (a destination
    -- the account had already, which alone may have a main alias).
    returning id, url, status, xmax <> '0' as existed
  )
  update pg_temp.bulk_rows r
  set long_url_id = s.id,
    existed = s.existed,
    error_field = case when s.status = 'terminated' then 'url' end,
    error_code = case when s.status = 'terminated' then 'url_not_allowed' end
  from stored s
  where s.url = r.url and r.error_code is null;

  -- An optimistic chunk takes its place in file order here, before it writes any alias: it waits
  -- until the chunk before it has ended (its order lock), then holds the job as any chunk does
  -- and checks that chunk was committed (the job counts its rows). Only then does it read the
  -- limits and credits, which now count every link made before it: when they leave room for all
  -- its rows, the verdicts are the ones a chunk sent alone would get. Otherwise (a limit would
  -- stop some of its rows, the chunk before failed, the job was ended), nothing is kept: the
  -- caller sends the chunk again alone, and that call decides (20261122007400).
  if p_optimistic then
    perform pg_advisory_xact_lock(v_order_key, p_after);
    select * into v_job from public.bulk_jobs j
    where j.id = p_job_id and j.created_by = v_uid and j.status in ('pending', 'processing')
    for update;
    v_capacity := app.link_capacity(v_job.account_id, v_domain.kind <> 'common');
    if v_credit_limit is not null and v_credit_cost > 0 then
      insert into public.account_usage (account_id, name) values (v_job.account_id, 'max_web_credits')
      on conflict (account_id, name) do nothing;
      select v_credit_limit - u.used into v_credits_left from public.account_usage u
      where u.account_id = v_job.account_id and u.name = 'max_web_credits'
      for update;
    end if;
    if v_job.id is null or v_job.processed <> p_after or v_eligible > v_capacity
      or v_eligible * v_credit_cost > v_credits_left then
      raise exception using errcode = '40001', message = 'bulk chunk out of order',
        detail = 'the chunk is to be sent again alone';
    end if;
  end if;
  -- Only a destination the account had before the upsert can have a main alias already. Looked
  -- up in a statement of its own, so that it sees the aliases of a chunk committed meanwhile.
  update pg_temp.bulk_rows r set main_taken = true
  where r.existed and r.error_code is null
    and exists (select 1 from public.aliases a where a.long_url_id = r.long_url_id and a.is_main);

  -- Aliases: chosen ones as given, the others drawn (first by the function, then again by
  -- app.random_alias, as create_link draws). Each round inserts every pending row whose alias is unique in the round; a drawn alias that
  -- collides (with a link or another row) is drawn again next round, a chosen one that lost a
  -- race with another creator is taken.
  loop
    v_round := v_round + 1;
    if v_round > 1 then
      -- A destination whose main alias an earlier round inserted: only the rows left pending
      -- (drawn aliases that collided, a handful) are looked up.
      update pg_temp.bulk_rows r set main_taken = true
      where r.error_code is null and r.alias_id is null and not r.main_taken
        and exists (
          select 1 from public.aliases a where a.long_url_id = r.long_url_id and a.is_main
        );
    end if;
    with candidates as (
      select r.row_number, r.long_url_id, r.main_taken,
        coalesce(
          r.alias,
          case when v_round = 1 and r.first_draw ~ '^[A-Za-z0-9]{7,50}$' then r.first_draw end,
          app.random_alias()
        ) as alias
      from pg_temp.bulk_rows r
      where r.error_code is null and r.alias_id is null
    ), unique_candidates as (
      select distinct on (lower(c.alias)) c.row_number, c.long_url_id, c.main_taken, c.alias
      from candidates c
      -- citext's equality is that of lower(): compared as text, a hash join on plain strings.
      where not exists (
        select 1 from public.reserved_aliases ra
        where lower(ra.alias::text) = lower(c.alias)
      )
      order by lower(c.alias), c.row_number
    ), inserted as (
      insert into public.aliases (long_url_id, account_id, domain_id, alias, is_main, created_by,
        organization_id)
      select c.long_url_id, v_job.account_id, v_job.domain_id, c.alias,
        -- The first alias of a destination is its main one (main_taken: the destination had
        -- one already; it was looked up once per existing destination, not here per round).
        row_number() over (partition by c.long_url_id order by c.row_number) = 1
          and not c.main_taken,
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

grant execute on function app.bulk_create_links(uuid, jsonb, integer, integer, boolean)
  to authenticated, service_role;
revoke execute on function app.bulk_create_links(uuid, jsonb, integer, integer, boolean) from public;
