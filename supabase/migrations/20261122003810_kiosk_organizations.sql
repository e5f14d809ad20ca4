-- The kiosk's read-only views of organizations and teams (kiosk/src/resources/organizations):
-- who owns each, its plan, whether it is archived, its people and links. Staff only (the
-- tables' staff read policies, and the filter below). Impersonating the owner or a member goes
-- through the users resource, as for anyone.

-- The plan an account is on now (its own subscription, a team's organization's, or free).
create function app.account_plan_name(p_account_id uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select p.name from public.plan_prices pp join public.plans p on p.id = pp.plan_id
  where pp.id = app.account_price_id(p_account_id)
$$;
revoke execute on function app.account_plan_name(uuid) from public;
grant execute on function app.account_plan_name(uuid) to authenticated, service_role;

create view public.kiosk_organizations with (security_invoker = true) as
select
  o.id,
  o.name,
  o.slug::text as slug,
  o.account_id,
  ac.owner_id,
  owner.email as owner_email,
  app.account_plan_name(o.account_id) as plan,
  o.archived_at,
  o.created_at,
  (select count(*) from public.organization_users ou where ou.organization_id = o.id)::bigint
    as users_count,
  (select count(*) from public.teams t where t.organization_id = o.id)::bigint as teams_count,
  (select count(*) from public.aliases a where a.organization_id = o.id)::bigint as links_count
from public.organizations o
join public.accounts ac on ac.id = o.account_id
left join public.profiles owner on owner.id = ac.owner_id
where (select app.is_staff());
comment on view public.kiosk_organizations is
  'Staff only: organizations with owner, plan, archive state, users, teams and links.';

create view public.kiosk_teams with (security_invoker = true) as
select
  t.id,
  t.name,
  t.slug::text as slug,
  t.account_id,
  t.organization_id,
  o.name as organization_name,
  ac.owner_id,
  owner.email as owner_email,
  app.account_plan_name(t.account_id) as plan,
  t.archived_at,
  t.created_at,
  (select count(*) from public.team_members m where m.team_id = t.id)::bigint as members_count,
  (select count(*) from public.aliases a where a.account_id = t.account_id)::bigint as links_count
from public.teams t
join public.accounts ac on ac.id = t.account_id
left join public.organizations o on o.id = t.organization_id
left join public.profiles owner on owner.id = ac.owner_id
where (select app.is_staff());
comment on view public.kiosk_teams is
  'Staff only: teams with their organization, owner, plan, archive state, members and links.';

-- The people of an organization and of a team, one id per row for react-admin.
create view public.kiosk_organization_users with (security_invoker = true) as
select
  ou.organization_id::text || ':' || ou.user_id::text as id,
  ou.organization_id,
  ou.user_id,
  p.email,
  p.name,
  r.name as role_name,
  r.permissions::text[] as permissions,
  ou.created_at
from public.organization_users ou
join public.profiles p on p.id = ou.user_id
join public.organization_roles r on r.id = ou.role_id
where (select app.is_staff());
comment on view public.kiosk_organization_users is
  'Staff only: organization users with their role and its permissions.';

create view public.kiosk_team_members with (security_invoker = true) as
select
  m.team_id::text || ':' || m.user_id::text as id,
  m.team_id,
  m.user_id,
  p.email,
  p.name,
  m.role,
  m.created_at
from public.team_members m
join public.profiles p on p.id = m.user_id
where (select app.is_staff());
comment on view public.kiosk_team_members is 'Staff only: team members with their role.';

revoke all on public.kiosk_organizations, public.kiosk_teams, public.kiosk_organization_users,
  public.kiosk_team_members from anon, authenticated;
grant select on public.kiosk_organizations, public.kiosk_teams, public.kiosk_organization_users,
  public.kiosk_team_members to authenticated;
