-- Permission checks, planned once per connection instead of once per call.
--
-- app.caller_grants is the single place permissions resolve: every app.has_permission, every
-- app.accounts_with_permission and through them most row-level security policies read it, so a
-- request under RLS calls it several times (the API's 50-link page: five times, once per policy
-- subquery). As a SQL function that cannot be inlined (security definer), PostgreSQL 17 parses
-- and plans its five-branch union on every call; PL/pgSQL keeps the plan for the session. The
-- same query, so the same grants: 200 app.has_permission calls took 1.0-1.5 s on the loaded
-- bench machine, 28-31 ms after (bench/api.ts prints the API's share).

create or replace function app.caller_grants() returns table (account_id uuid, permission text)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with me as (select (select auth.uid()) as id)
    -- Owners of any account (personal workspace, team, organization) hold everything.
    select a.id, p.permission
    from public.accounts a
    join me on a.owner_id = me.id
    cross join unnest(app.permission_names()) as p(permission)
    union
    -- Organization users: links.read plus their role's permissions on the organization.
    select o.account_id, p.permission
    from public.organization_users ou
    join me on ou.user_id = me.id
    join public.organizations o on o.id = ou.organization_id
    join public.organization_roles r on r.id = ou.role_id
    cross join unnest('{links.read}'::text[] || r.permissions::text[]) as p(permission)
    union
    -- Team members by role.
    select t.account_id, p.permission
    from public.team_members tm
    join me on tm.user_id = me.id
    join public.teams t on t.id = tm.team_id
    cross join unnest(app.team_role_permissions(tm.role)) as p(permission)
    union
    -- The organization's owner holds everything on its teams.
    select t.account_id, p.permission
    from public.accounts oa
    join me on oa.owner_id = me.id and oa.kind = 'organization'
    join public.organizations o on o.account_id = oa.id
    join public.teams t on t.organization_id = o.id
    cross join unnest(app.permission_names()) as p(permission)
    union
    -- Organization roles reach into the organization's teams.
    select t.account_id, p.permission
    from public.organization_users ou
    join me on ou.user_id = me.id
    join public.organization_roles r on r.id = ou.role_id
    join public.teams t on t.organization_id = ou.organization_id
    cross join unnest(app.org_role_team_permissions(r.permissions::text[])) as p(permission);
end;
$$;
