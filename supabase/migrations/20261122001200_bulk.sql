-- Bulk import (issue 4): a file of long URLs turned into links by the bulk-import edge function.
--
-- The function reads and checks the file, then calls, as the signed-in caller (role
-- authenticated, their JWT claims; see supabase/functions/_shared/sql.ts):
--   app.schedule_bulk_job   the form's rules (workspace, permission, plan features, domain),
--                           then the job row;
--   app.bulk_create_links   once per chunk of rows: create_link's rules applied set-based, one
--                           insert statement per table per chunk, per-row errors returned;
--   app.finish_bulk_job     the job's outcome, its per-row errors and the notification.
-- These live in `app`, which the REST API does not expose: nobody can call them but through the
-- function, which checks each destination's safety (internal addresses in every notation) first.
--
-- Storage: the uploaded file goes to the imports bucket as <user id>/<job id>.<ext>, uploaded
-- with the caller's token, so the policies below decide; the result CSV goes to the exports
-- bucket as <user id>/bulk-imports/<job id>.csv (written by the service role), readable by its
-- owner only.

-- ---------------------------------------------------------------------------------------------
-- The job row gains what the import reports.

alter table public.bulk_jobs
  add column file_name text check (char_length(file_name) between 1 and 255),
  add column file_type text check (file_type in ('csv', 'xls', 'xlsx', 'ods')),
  -- Rows that became links (processed counts every row handled, refused ones included).
  add column created integer not null default 0 check (created >= 0),
  -- The result CSV in the exports bucket.
  add column result_path text
    check (char_length(result_path) between 1 and 1024 and result_path !~ '^/'),
  add constraint bulk_jobs_created_within_processed check (created <= processed);
comment on column public.bulk_jobs.errors is
  'Per file row (1-based, as a string key), field → messages: { "3": { "url": ["The url must be a valid URL."] } }.';
create index bulk_jobs_file_path_idx on public.bulk_jobs (created_by, file_path);

-- ---------------------------------------------------------------------------------------------
-- The bulk area's own error codes; every other code comes from app.link_error's catalogue.

create function app.bulk_error(p_code text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  case p_code
    when 'bulk_not_allowed' then
      raise exception using errcode = 'PT403', message = p_code,
        detail = 'Your plan does not allow bulk creation.', hint = 'form';
    when 'bulk_job_not_found' then
      raise exception using errcode = 'PT404', message = p_code,
        detail = 'Bulk job not found.', hint = 'form';
    else
      perform app.link_error(p_code);
  end case;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Building blocks, shaped after create_link's inline checks so that create_link can adopt them.

-- The workspace of a bulk import as the routes name it: organization/{o}/team/{t},
-- organization/{o}/personal, or bulk/csv with the form's team (a slug, or null for the personal
-- workspace). The caller must see the workspace; whether they may create links in it is checked
-- by the caller of this function.
create function app.bulk_workspace(p_organization_slug text, p_team_slug text)
returns table (account_id uuid, team_id uuid, organization_id uuid)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_organization_id uuid;
begin
  if p_organization_slug is not null then
    select o.id into v_organization_id from public.organizations o where o.slug = p_organization_slug;
    if v_organization_id is null then
      perform app.raise_coded('organization_not_found');
    end if;
  end if;

  if p_team_slug is not null then
    -- Team slugs are unique per organization; without one, a standalone team is meant first.
    return query
      select t.account_id, t.id, t.organization_id
      from public.teams t
      where t.slug = p_team_slug
        and (v_organization_id is null or t.organization_id = v_organization_id)
        and app.has_permission(t.account_id, 'links.read')
      order by t.organization_id is not null, t.created_at
      limit 1;
    if not found then
      perform app.link_error('unknown_team');
    end if;
    return;
  end if;

  -- The personal workspace, in organization mode for the organization's members and for the
  -- admins and members of its teams (as create_link decides).
  if v_organization_id is not null and not (
    app.is_organization_member(v_organization_id, v_uid)
    or exists (
      select 1 from public.teams t
      where t.organization_id = v_organization_id
        and app.has_permission(t.account_id, 'links.create')
    )
  ) then
    perform app.raise_coded('organization_not_found');
  end if;
  return query
    select p.personal_account_id, null::uuid, v_organization_id
    from public.profiles p where p.id = v_uid;
end;
$$;

-- The domain a signed-in user creates links on, selectable as the create form decides (the
-- non-guest rules of create_link).
create function app.check_link_domain(
  p_domain text, p_account_id uuid, p_team_id uuid, p_organization_id uuid,
  p_feature_account_id uuid
) returns public.domains
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_domain public.domains;
begin
  select * into v_domain from public.domains d where d.domain = lower(btrim(p_domain));
  if v_domain.id is null or v_domain.is_disabled or v_domain.is_deleted or v_domain.is_blocked then
    perform app.link_error('domain_not_found');
  end if;
  if v_domain.kind = 'common' then
    if v_domain.require_email_verification and not app.is_verified(v_uid)
      and not app.is_subscribed(v_uid) then
      perform app.link_error('email_verification');
    end if;
    if v_domain.subscribed_only and p_organization_id is null and not app.is_subscribed(v_uid) then
      perform app.link_error('not_subscribed');
    end if;
  elsif v_domain.kind = 'branded' then
    if v_domain.account_id <> p_account_id or v_domain.verification_status <> 'verified' then
      perform app.link_error('domain_not_found');
    end if;
    if not app.account_has_feature(p_feature_account_id, 'use_branded_domains') then
      perform app.link_error('not_subscribed');
    end if;
  elsif v_domain.verification_status <> 'verified' or p_organization_id is null
    or v_domain.account_id <> (
      select o.account_id from public.organizations o where o.id = p_organization_id
    )
    or not (v_domain.for_all_teams or exists (
      select 1 from public.domain_teams dt
      where dt.domain_id = v_domain.id and dt.team_id = p_team_id
    )) then
    perform app.link_error('domain_not_found');
  end if;
  return v_domain;
end;
$$;

-- How many more links the account may create under its plan limits (null: no limit). Counts as
-- app.check_link_limits does, under the same per-account lock, so that single creates and bulk
-- chunks running at the same time cannot overshoot together.
create function app.link_capacity(p_account_id uuid, p_branded boolean) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_active_limit bigint := app.account_limit(p_account_id, 'max_active_aliases');
  v_monthly_limit bigint := app.account_limit(p_account_id, 'max_aliases_per_month');
  v_branded_limit bigint := case when p_branded
    then app.account_limit(p_account_id, 'max_branded_aliases_per_month') end;
  v_total_limit bigint := app.account_limit(p_account_id, 'max_aliases');
  v_month_start timestamptz := date_trunc('month', now(), 'UTC');
  v_counts record;
begin
  if v_active_limit is null and v_monthly_limit is null and v_branded_limit is null
    and v_total_limit is null then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('links:' || p_account_id::text, 0));
  if exists (
    select 1 from public.account_usage u
    where u.account_id = p_account_id and u.name = 'max_active_aliases' and u.overage_enabled
  ) then
    v_active_limit := null;
  end if;
  -- Counted per status first, so that app.alias_is_active runs once per status rather than once
  -- per link (a function call per row would cost more than the count, once per chunk).
  select
    coalesce(sum(g.live) filter (where app.alias_is_active(g.status)), 0) as active,
    coalesce(sum(g.monthly), 0) as monthly,
    coalesce(sum(g.branded), 0) as branded,
    coalesce(sum(g.total), 0) as total
  into v_counts
  from (
    select a.status,
      count(*) filter (where a.expires_at is null or a.expires_at > now()) as live,
      count(*) filter (where a.created_at >= v_month_start) as monthly,
      count(*) filter (where a.created_at >= v_month_start and d.kind <> 'common') as branded,
      count(*) as total
    from public.aliases a
    join public.domains d on d.id = a.domain_id
    where a.account_id = p_account_id
    group by a.status
  ) as g;
  -- least() skips nulls: only the limits that exist take part.
  return greatest(0, least(
    v_active_limit - v_counts.active, v_monthly_limit - v_counts.monthly,
    v_branded_limit - v_counts.branded, v_total_limit - v_counts.total
  ));
end;
$$;

-- The creator may still bulk-create in the job's workspace: links.create there, and the plan's
-- create_tiny_url and use_bulk (the spec's "bulk create" gate). Returns the feature account.
create function app.check_bulk_allowed(p_account_id uuid, p_organization_id uuid) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_feature_account_id uuid := app.feature_account_id(p_account_id, p_organization_id);
begin
  if not app.has_permission(p_account_id, 'links.create') then
    perform app.link_error('viewer_cannot_create');
  end if;
  if not (app.account_has_feature(v_feature_account_id, 'create_tiny_url')
    and app.account_has_feature(v_feature_account_id, 'use_bulk')) then
    perform app.bulk_error('bulk_not_allowed');
  end if;
  return v_feature_account_id;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- schedule_bulk_job: the form's rules, then a pending job with the file's row count. The id
-- comes from the function, which names the uploaded object after it.

create function app.schedule_bulk_job(
  p_job_id uuid,
  p_domain text,
  p_file_name text,
  p_file_type text,
  p_with_header boolean,
  p_total integer,
  p_organization_slug text default null,
  p_team_slug text default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_workspace record;
  v_feature_account_id uuid;
  v_domain public.domains;
  v_job public.bulk_jobs;
begin
  if v_uid is null then
    perform app.raise_coded('permission_denied');
  end if;
  select * into v_workspace from app.bulk_workspace(p_organization_slug, p_team_slug);
  v_feature_account_id := app.check_bulk_allowed(v_workspace.account_id, v_workspace.organization_id);
  v_domain := app.check_link_domain(p_domain, v_workspace.account_id, v_workspace.team_id,
    v_workspace.organization_id, v_feature_account_id);
  insert into public.bulk_jobs (id, account_id, created_by, organization_id, domain_id, file_path,
    file_name, file_type, with_header, total)
  values (p_job_id, v_workspace.account_id, v_uid, v_workspace.organization_id, v_domain.id,
    v_uid::text || '/' || p_job_id::text || '.' || p_file_type, p_file_name, p_file_type,
    coalesce(p_with_header, true), p_total)
  returning * into v_job;
  return jsonb_build_object('id', v_job.id, 'file_path', v_job.file_path, 'total', v_job.total,
    'account_id', v_job.account_id, 'domain', v_domain.domain);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- bulk_create_links: one chunk of a job's rows, as jsonb
--   [{ "row": 2, "url": "https://…", "domains": ["a.example.com", "example.com", "com"],
--      "alias": "spring" | null, "random_alias": "a1B2c3D" | null, "tags": ["news"] }, …]
-- (url already normalised and checked for safety by the function, domains = its host and parent
-- domains, tags already normalised). create_link's rules are applied to all rows at once, in
-- create_link's order, the first failing rule naming each refused row; the rows that pass become
-- links with one insert per table. p_refused_rows: rows of this chunk the function refused
-- before (they count as processed). Answers
--   { "short_url_prefix": "https://sho.rt/", "created": [[row, alias], …],
--     "errors": [[row, field, code], …] }.

create function app.bulk_create_links(p_job_id uuid, p_rows jsonb, p_refused_rows integer default 0)
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
    domains text[] not null,
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
  insert into pg_temp.bulk_rows (row_number, url, domains, alias, drawn, first_draw, tags)
  select r."row", r.url, coalesce(r.domains, '{}'), nullif(btrim(r.alias), ''),
    nullif(btrim(r.alias), '') is null, r.random_alias, coalesce(r.tags, '{}')
  from jsonb_to_recordset(p_rows) as r("row" integer, url text, domains text[], alias text,
    random_alias text, tags text[]);
  get diagnostics v_row_count = row_count;
  -- Statistics for the planner: without them it guesses one row and joins the chunk to itself
  -- by nested loops (a million comparisons per thousand rows).
  analyze pg_temp.bulk_rows;

  -- The rules of one row, in create_link's order; the first that fails names the row's error.
  -- The destination (app.check_destination): the stored form fits long_urls, no banned domain
  -- or subdomain of one, no link to our own domains. A chosen alias (app.check_custom_alias_
  -- allowed, app.check_alias): allowed for this caller, well formed, not reserved, free on the
  -- domain. Tags need the plan's use_tags (their format was checked by the function).
  update pg_temp.bulk_rows r
  set error_code = e.code,
    error_field = case when e.code like 'url\_%' then 'url' else 'alias' end
  from (
    select b.row_number,
      case
        when b.url !~* '^https?://' or char_length(b.url) > 2048 then 'url_invalid'
        when exists (select 1 from public.banned_domains bd where bd.domain = any (b.domains))
          then 'url_banned'
        when exists (select 1 from public.domains d where d.domain = any (b.domains))
          then 'url_not_allowed'
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

-- ---------------------------------------------------------------------------------------------
-- finish_bulk_job: the outcome, the per-row errors (field → messages per row) and the result's
-- place in the exports bucket; then the creator's notification.

create function app.finish_bulk_job(
  p_job_id uuid, p_failed boolean, p_errors jsonb default '{}', p_result_path text default null
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_job public.bulk_jobs;
begin
  update public.bulk_jobs j
  set status = case when p_failed then 'failed' else 'completed' end,
    started_at = coalesce(j.started_at, now()), finished_at = now(),
    errors = coalesce(p_errors, '{}'::jsonb), result_path = p_result_path
  where j.id = p_job_id and j.created_by = (select auth.uid())
    and j.status in ('pending', 'processing')
  returning * into v_job;
  if v_job.id is null then
    perform app.bulk_error('bulk_job_not_found');
  end if;
  insert into public.notifications (user_id, account_id, type, title, body, data)
  values (
    v_job.created_by, v_job.account_id,
    case when p_failed then 'bulk_import.failed' else 'bulk_import.completed' end,
    case when p_failed then 'Batch failed' else 'Batch completed' end,
    case when p_failed
      then format('The batch from %s could not be processed. %s of %s links were created.',
        coalesce(v_job.file_name, 'your file'), v_job.created, v_job.total)
      else format('%s of %s links from %s were created.', v_job.created, v_job.total,
        coalesce(v_job.file_name, 'your file'))
    end,
    jsonb_build_object('job_id', v_job.id, 'total', v_job.total, 'created', v_job.created,
      'failed', v_job.total - v_job.created, 'result_path', v_job.result_path)
  );
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Storage: the imports bucket holds each user's uploads under their own folder, and only the
-- file of a pending job of theirs may be added; the exports bucket's bulk-imports folder holds
-- the results, which only their owner reads. Nobody updates or deletes through the API (the
-- service role cleans up).

create function app.is_own_pending_bulk_file(p_name text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.bulk_jobs j
    where j.created_by = (select auth.uid()) and j.file_path = p_name and j.status = 'pending'
  )
$$;

create policy "Users can upload the file of their own pending bulk job" on storage.objects
  for insert to authenticated
  with check (
    bucket_id = 'imports'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and app.is_own_pending_bulk_file(name)
  );

create policy "Users can read their own bulk import files" on storage.objects
  for select to authenticated
  using (bucket_id = 'imports' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users can read their own bulk import results" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'exports'
    and (storage.foldername(name))[1] = (select auth.uid())::text
    and (storage.foldername(name))[2] = 'bulk-imports'
  );

-- ---------------------------------------------------------------------------------------------
-- Privileges: the function calls these as the signed-in caller; the building blocks run inside
-- them (as their owner) and are the service role's only.

grant execute on function
  app.schedule_bulk_job(uuid, text, text, text, boolean, integer, text, text),
  app.bulk_create_links(uuid, jsonb, integer),
  app.finish_bulk_job(uuid, boolean, jsonb, text),
  app.is_own_pending_bulk_file(text)
  to authenticated, service_role;
grant execute on function
  app.bulk_error(text), app.bulk_workspace(text, text),
  app.check_link_domain(text, uuid, uuid, uuid, uuid), app.link_capacity(uuid, boolean),
  app.check_bulk_allowed(uuid, uuid)
  to service_role;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
