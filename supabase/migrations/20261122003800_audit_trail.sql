-- The organization audit trail, complete (issue 16, item 5). 20261122000130 began it: triggers
-- on the organization, its roles, users, teams, team members and invitations. This adds
--   * the rest of what an organization changes: its domains and its teams' domains, API tokens,
--     subscriptions, and the state of its links (made, archived, deleted, restored, terminated);
--   * the caller's IP and a readable target ("Marketing", "ann@example.com in Marketing",
--     "acme.link/spring") on every row;
--   * the read calls the audit page uses (one page of events under filters; the filters' choices),
--     which check the `audit` permission once, here;
--   * retention by plan: the plan option audit_retention (an ISO 8601 duration; absent keeps
--     everything), applied daily by Supabase Cron.
-- Secrets and noise never enter the trail: token hashes, domain verification tokens, a token's
-- last use and every updated_at are left out of before/after, and a change of only those leaves
-- no row.

alter table public.audit_events
  add column ip inet,
  add column target text check (char_length(target) <= 600);
comment on column public.audit_events.ip is
  'The address the change came from, as the gateway passed it to PostgREST (x-real-ip); null for changes made outside an API request (jobs, migrations).';
comment on column public.audit_events.target is
  'What changed, as a person reads it: a name, an e-mail, a domain or a short link.';
create index audit_events_organization_action_idx
  on public.audit_events (organization_id, action, created_at desc);

-- ---------------------------------------------------------------------------------------------
-- Where a change belongs and where it came from.

-- The organization an account belongs to: its own, or its team's; null for personal accounts
-- and standalone teams.
create function app.account_organization_id(p_account_id uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select o.id from public.organizations o where o.account_id = p_account_id),
    (select t.organization_id from public.teams t where t.account_id = p_account_id)
  )
$$;

-- The caller's address as the gateway saw it. PostgREST exposes the request's headers as JSON;
-- outside a request (cron, psql) there are none. A malformed value is dropped, never fatal: the
-- trail must not refuse a change over a header.
create function app.request_ip() returns inet
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_headers text := nullif(current_setting('request.headers', true), '');
  v_address text;
begin
  if v_headers is null then
    return null;
  end if;
  v_address := btrim(split_part(
    coalesce(v_headers::jsonb ->> 'x-real-ip', v_headers::jsonb ->> 'x-forwarded-for'), ',', 1));
  return nullif(v_address, '')::inet;
exception when others then
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- The row-level trail, extended to domains, API tokens and subscriptions.

create or replace function app.audit_organization_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  -- Never in the trail: secrets, and columns that change without anyone changing anything.
  v_left_out text[] := array['updated_at'] || case tg_table_name
    when 'api_tokens' then array['token_hash', 'last_used_at']
    when 'domains' then array['verification_token']
    else array[]::text[] end;
  v_old jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) - v_left_out end;
  v_new jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) - v_left_out end;
  v_organization_id uuid;
  v_action text := case tg_op
    when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'deleted' end;
  v_target text;
begin
  v_organization_id := case tg_table_name
    when 'organizations' then (v_row ->> 'id')::uuid
    when 'team_members' then (
      select t.organization_id from public.teams t where t.id = (v_row ->> 'team_id')::uuid
    )
    when 'domains' then app.account_organization_id((v_row ->> 'account_id')::uuid)
    when 'api_tokens' then app.account_organization_id((v_row ->> 'account_id')::uuid)
    when 'subscriptions' then app.account_organization_id((v_row ->> 'account_id')::uuid)
    else (v_row ->> 'organization_id')::uuid
  end;
  -- Standalone teams and personal accounts have no trail; a deleted organization takes its
  -- trail with it.
  if v_organization_id is null
    or not exists (select 1 from public.organizations o where o.id = v_organization_id) then
    return null;
  end if;
  if tg_op = 'UPDATE' and v_old = v_new then
    return null;
  end if;
  if tg_table_name in ('organizations', 'teams') and tg_op = 'UPDATE'
    and (v_old ->> 'archived_at') is distinct from (v_new ->> 'archived_at') then
    v_action := case when v_new ->> 'archived_at' is null then 'unarchived' else 'archived' end;
  end if;
  v_target := case tg_table_name
    when 'organization_users' then (
      select p.email from public.profiles p where p.id = (v_row ->> 'user_id')::uuid
    )
    when 'team_members' then (
      select p.email || ' in ' || t.name
      from public.profiles p, public.teams t
      where p.id = (v_row ->> 'user_id')::uuid and t.id = (v_row ->> 'team_id')::uuid
    )
    when 'invitations' then v_row ->> 'email'
    when 'domains' then v_row ->> 'domain'
    else v_row ->> 'name'
  end;
  insert into public.audit_events (organization_id, actor_id, action, subject_table, subject_id,
    old_values, new_values, ip, target)
  values (
    v_organization_id,
    (select auth.uid()),
    regexp_replace(tg_table_name, 's$', '') || '.' || v_action,
    tg_table_name,
    coalesce(v_row ->> 'id', v_row ->> 'user_id'),
    v_old,
    v_new,
    app.request_ip(),
    left(v_target, 600)
  );
  return null;
end;
$$;

create trigger domains_audit after insert or update or delete on public.domains
  for each row execute function app.audit_organization_change();
-- A token is touched on every API call (last_used_at); only real changes reach the function.
create trigger api_tokens_audit_insert_delete after insert or delete on public.api_tokens
  for each row execute function app.audit_organization_change();
create trigger api_tokens_audit_update after update on public.api_tokens
  for each row
  when ((to_jsonb(old) - array['last_used_at', 'updated_at'])
    is distinct from (to_jsonb(new) - array['last_used_at', 'updated_at']))
  execute function app.audit_organization_change();
create trigger subscriptions_audit after insert or update or delete on public.subscriptions
  for each row execute function app.audit_organization_change();

-- ---------------------------------------------------------------------------------------------
-- Links: their birth and their state, per statement (a bulk import of 100,000 links into an
-- organization writes its trail in one insert, not 100,000 trigger calls).

create function app.link_audit_action(p_old_status text, p_new_status text) returns text
language sql immutable security definer
set search_path = ''
as $$
  select 'link.' || case
    when p_old_status is null then 'created'
    when p_new_status in ('archived', 'deleted', 'terminated') then p_new_status
    when p_old_status in ('archived', 'deleted', 'terminated') then 'restored'
    else 'updated'
  end
$$;

create function app.audit_link_statement() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_ip inet := app.request_ip();
begin
  if tg_op = 'INSERT' then
    insert into public.audit_events (organization_id, actor_id, action, subject_table, subject_id,
      old_values, new_values, ip, target)
    select n.organization_id, v_actor, app.link_audit_action(null, n.status), 'aliases',
      n.id::text, null, jsonb_build_object('status', n.status, 'account_id', n.account_id),
      v_ip, d.domain || '/' || n.alias
    from inserted n
    join public.domains d on d.id = n.domain_id
    where n.organization_id is not null;
  else
    insert into public.audit_events (organization_id, actor_id, action, subject_table, subject_id,
      old_values, new_values, ip, target)
    select n.organization_id, v_actor, app.link_audit_action(o.status, n.status), 'aliases',
      n.id::text, jsonb_build_object('status', o.status),
      jsonb_build_object('status', n.status), v_ip, d.domain || '/' || n.alias
    from updated n
    join previous o on o.id = n.id
    join public.domains d on d.id = n.domain_id
    where n.organization_id is not null and o.status is distinct from n.status;
  end if;
  return null;
end;
$$;

create trigger aliases_audit_insert after insert on public.aliases
  referencing new table as inserted
  for each statement execute function app.audit_link_statement();
create trigger aliases_audit_update after update on public.aliases
  referencing old table as previous new table as updated
  for each statement execute function app.audit_link_statement();

-- ---------------------------------------------------------------------------------------------
-- Reading the trail: the audit page's calls. Owners, holders of `audit` and staff; everyone else
-- gets permission_denied (an unknown organization too, so ids cannot be probed).

create function app.require_audit_reader(p_organization_id uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if app.is_staff() then
    return;
  end if;
  if not exists (
    select 1 from public.organizations o
    where o.id = p_organization_id and app.has_permission(o.account_id, 'audit')
  ) then
    perform app.raise_coded('permission_denied');
  end if;
end;
$$;

-- One page of the trail, newest first: at most p_limit (1–1000) events older than p_before_id,
-- of one actor and one action if given, in [p_from, p_to).
create function public.organization_audit_trail(
  p_organization_id uuid,
  p_actor_id uuid default null,
  p_action text default null,
  p_from timestamptz default null,
  p_to timestamptz default null,
  p_before_id bigint default null,
  p_limit integer default 50
) returns table (
  id bigint,
  created_at timestamptz,
  actor_id uuid,
  actor_email text,
  actor_name text,
  action text,
  subject_table text,
  subject_id text,
  target text,
  ip text,
  old_values jsonb,
  new_values jsonb
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.require_audit_reader(p_organization_id);
  return query
    select e.id, e.created_at, e.actor_id, p.email, p.name, e.action, e.subject_table,
      e.subject_id, e.target, host(e.ip), e.old_values, e.new_values
    from public.audit_events e
    left join public.profiles p on p.id = e.actor_id
    where e.organization_id = p_organization_id
      and (p_actor_id is null or e.actor_id = p_actor_id)
      and (p_action is null or e.action = p_action)
      and (p_from is null or e.created_at >= p_from)
      and (p_to is null or e.created_at < p_to)
      and (p_before_id is null or e.id < p_before_id)
    order by e.id desc
    limit least(greatest(coalesce(p_limit, 50), 1), 1000);
end;
$$;
comment on function public.organization_audit_trail(uuid, uuid, text, timestamptz, timestamptz,
  bigint, integer) is
  'A page of an organization''s audit trail, newest first, for its owner, holders of audit and staff.';

-- The choices of the page's filters: who has acted and which actions happened, with counts.
create function public.organization_audit_filters(p_organization_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.require_audit_reader(p_organization_id);
  return jsonb_build_object(
    'actors', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.actor_id, 'email', p.email, 'name', p.name)
        order by p.email)
      from (select distinct e.actor_id from public.audit_events e
            where e.organization_id = p_organization_id and e.actor_id is not null) a
      join public.profiles p on p.id = a.actor_id
    ), '[]'::jsonb),
    'actions', coalesce((
      select jsonb_agg(x.action order by x.action)
      from (select distinct e.action from public.audit_events e
            where e.organization_id = p_organization_id) x
    ), '[]'::jsonb)
  );
end;
$$;
comment on function public.organization_audit_filters(uuid) is
  'The actors and actions found in an organization''s audit trail: the audit page''s filter choices.';

revoke all on function public.organization_audit_trail(uuid, uuid, text, timestamptz,
  timestamptz, bigint, integer), public.organization_audit_filters(uuid) from public, anon;
grant execute on function public.organization_audit_trail(uuid, uuid, text, timestamptz,
  timestamptz, bigint, integer), public.organization_audit_filters(uuid)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Retention by plan: audit_retention, an ISO 8601 duration like analytics_period.

create or replace function app.valid_plan_options(p_options jsonb) returns boolean
language plpgsql immutable security definer
set search_path = ''
as $$
declare
  v_key text;
  v_value jsonb;
begin
  if p_options is null or jsonb_typeof(p_options) <> 'object' then
    return false;
  end if;
  for v_key, v_value in select key, value from jsonb_each(p_options) loop
    if v_key = any (app.plan_count_options()) then
      if not (
        jsonb_typeof(v_value) = 'null'
        or (jsonb_typeof(v_value) = 'number' and (v_value #>> '{}')::numeric >= 0
            and (v_value #>> '{}')::numeric = trunc((v_value #>> '{}')::numeric))
      ) then
        return false;
      end if;
    elsif v_key in ('analytics_enabled', 'analytics_public') then
      if jsonb_typeof(v_value) <> 'boolean' then
        return false;
      end if;
    elsif v_key in ('alias_lifetime', 'analytics_period', 'audit_retention') then
      -- An ISO 8601 duration such as P90D or P2Y (Postgres reads it as an interval).
      if jsonb_typeof(v_value) <> 'string' or (v_value #>> '{}') !~
        '^P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$' then
        return false;
      end if;
    else
      return false;
    end if;
  end loop;
  return true;
end;
$$;

-- Deletes the events each organization's plan no longer keeps; returns how many.
create function app.prune_audit_events() returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_count bigint;
begin
  with retention as (
    select o.id,
      (app.account_plan_option(o.account_id, 'audit_retention') #>> '{}')::interval as keep
    from public.organizations o
  )
  delete from public.audit_events e
  using retention r
  where e.organization_id = r.id and r.keep is not null and e.created_at < now() - r.keep;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
comment on function app.prune_audit_events() is
  'Deletes audit events older than the organization plan''s audit_retention; run daily by the cron job audit-retention.';

revoke execute on all functions in schema app from public;

select cron.schedule('audit-retention', '17 3 * * *', $$select app.prune_audit_events()$$);
