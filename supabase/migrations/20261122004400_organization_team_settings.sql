-- The organization's team settings (issue 16, organizations/{org}/settings/teams and its members
-- and api sub-pages): the organization's teams with their counts, archiving a team, and putting
-- organization people on a team directly.
--
-- app-shell 6: "Team settings permissions: teams, members, domains, supervisor (links Teams,
-- Members, Team Domains, API Tokens)". `teams` creates (create_team), renames (update_team) and
-- archives teams; `members` places people; `supervisor` reads the list and manages the teams' API
-- tokens. The owner holds every permission. Every change lands in the audit trail through the
-- row triggers of 20261122000130 (teams, team_members) and 20261122003800 (api_tokens).

-- ---------------------------------------------------------------------------------------------
-- 1. Supervisors hold `api` on the organization's teams (the API Tokens link is theirs).

create or replace function app.org_role_team_permissions(p_permissions text[]) returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array(
    select distinct g.permission
    from unnest(p_permissions) as r(permission)
    cross join lateral unnest(case r.permission
      when 'supervisor' then array['links.read', 'links.create', 'links.manage', 'api']
      when 'teams' then array['settings', 'members']
      when 'members' then array['members']
      when 'domains' then array['domains']
      when 'subscriptions' then array['billing']
      else '{}'::text[]
    end) as g(permission)
    order by 1
  )
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. Archiving is archive_team's alone: a team admin holds `settings` (the table's update policy)
-- but archiving belongs to the organization's `teams` permission.

create trigger teams_protect_archived_at before update on public.teams
  for each row execute function app.protect_columns('nobody', 'archived_at');

-- The codes of this area, then app.team_error's catalogue.
create function app.team_settings_error(p_code text) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  case p_code
    when 'not_organization_user' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'The user does not belong to the organization.', hint = 'user';
    else
      perform app.team_error(p_code);
  end case;
end;
$$;
grant execute on function app.team_settings_error(text) to authenticated, service_role;

-- The organization, when the caller belongs to it and holds one of p_permissions there.
create function app.organization_for_team_settings(p_organization_id uuid, p_permissions text[])
returns public.organizations
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_organization public.organizations;
begin
  select o.* into v_organization from public.organizations o
  where o.id = p_organization_id and o.id in (select app.visible_organization_ids());
  if not found then
    perform app.raise_coded('organization_not_found');
  end if;
  if not exists (
    select 1 from unnest(p_permissions) as p(permission)
    where app.has_permission(v_organization.account_id, p.permission)
  ) then
    perform app.raise_coded('permission_denied');
  end if;
  return v_organization;
end;
$$;
grant execute on function app.organization_for_team_settings(uuid, text[])
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. Seats: members plus pending invitations may not exceed the team account's max_members. One
-- rule for both ways onto a team an organization manager has: add_team_member, and a direct
-- insert under the "add organization people to a team" policy (checked by the trigger below
-- only for the API roles; definer RPCs such as accept_invitation keep their own checks).

create function app.check_team_seat(p_team_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_limit bigint;
  v_taken bigint;
begin
  select app.account_limit(t.account_id, 'max_members') into v_limit
  from public.teams t where t.id = p_team_id;
  if v_limit is null then
    return;
  end if;
  select (select count(*) from public.team_members m where m.team_id = p_team_id)
    + (select count(*) from public.invitations i
       where i.team_id = p_team_id and i.status = 'pending')
  into v_taken;
  if v_taken >= v_limit then
    perform app.raise_coded('team_limit_reached');
  end if;
end;
$$;
grant execute on function app.check_team_seat(uuid) to authenticated, service_role;

create function app.check_team_seat_on_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform app.check_team_seat(new.team_id);
  return new;
end;
$$;

create trigger team_members_seat_limit before insert on public.team_members
  for each row when (current_user in ('authenticated', 'anon'))
  execute function app.check_team_seat_on_insert();

-- ---------------------------------------------------------------------------------------------
-- 4. The settings/teams list: every team of the organization (archived ones too) with how many
-- members and links it has. For holders of teams, members or supervisor.

create function public.organization_teams(p_organization_id uuid)
returns table (
  id uuid,
  account_id uuid,
  slug text,
  name text,
  photo_url text,
  archived_at timestamptz,
  created_at timestamptz,
  owner_id uuid,
  members bigint,
  links bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.organization_for_team_settings(p_organization_id,
    array['teams', 'members', 'supervisor']);
  return query
    select t.id, t.account_id, t.slug::text, t.name, t.photo_url, t.archived_at, t.created_at,
      a.owner_id,
      (select count(*) from public.team_members m where m.team_id = t.id),
      coalesce((select sum(c.links) from app.link_counts c where c.account_id = t.account_id),
        0)::bigint
    from public.teams t
    join public.accounts a on a.id = t.account_id
    where t.organization_id = p_organization_id
    order by t.archived_at is not null, lower(t.name), t.id;
end;
$$;
comment on function public.organization_teams(uuid) is
  'The teams of an organization with their member and link counts, for holders of teams, members or supervisor.';

-- ---------------------------------------------------------------------------------------------
-- 5. Archive and unarchive a team (the organization's `teams` permission; a standalone team's
-- owner). Whoever works in an archived team is back in their personal workspace.

create function public.archive_team(p_team_id uuid, p_archive boolean)
returns public.teams
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
begin
  if p_archive is null then
    perform app.raise_coded('archive_invalid');
  end if;
  if not (
    case when v_team.organization_id is null then
      exists (select 1 from public.accounts a where a.id = v_team.account_id and a.owner_id = v_uid)
    else
      exists (select 1 from public.organizations o
              where o.id = v_team.organization_id and app.has_permission(o.account_id, 'teams'))
    end
  ) then
    perform app.raise_coded('permission_denied');
  end if;
  if (v_team.archived_at is not null) is distinct from p_archive then
    update public.teams
    set archived_at = case when p_archive then now() end
    where id = v_team.id
    returning * into v_team;
    if p_archive then
      update public.profiles set current_team_id = null, team_mode = false
      where current_team_id = v_team.id;
    end if;
  end if;
  return v_team;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 6. Put an organization person on one of its teams with a role (`members` on the team).

create function public.add_team_member(p_team_id uuid, p_user_id uuid, p_role text)
returns public.team_members
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
  v_member public.team_members;
begin
  if not app.has_permission(v_team.account_id, 'members') then
    perform app.raise_coded('permission_denied');
  end if;
  if p_role is null or p_role not in ('admin', 'member', 'viewer') then
    perform app.team_settings_error('role_invalid');
  end if;
  if exists (select 1 from public.team_members m where m.team_id = v_team.id and m.user_id = p_user_id)
    or exists (
      select 1 from public.invitations i join public.profiles p on lower(p.email) = lower(i.email)
      where i.team_id = v_team.id and i.status = 'pending' and p.id = p_user_id
    ) then
    perform app.raise_coded('already_member');
  end if;
  if p_user_id is null or v_team.organization_id is null
    or not app.is_organization_member(v_team.organization_id, p_user_id) then
    perform app.team_settings_error('not_organization_user');
  end if;
  perform app.check_team_seat(v_team.id);
  insert into public.team_members (team_id, user_id, role)
  values (v_team.id, p_user_id, p_role)
  returning * into v_member;
  return v_member;
end;
$$;

revoke execute on function
  public.organization_teams(uuid), public.archive_team(uuid, boolean),
  public.add_team_member(uuid, uuid, text)
  from public, anon;
grant execute on function
  public.organization_teams(uuid), public.archive_team(uuid, boolean),
  public.add_team_member(uuid, uuid, text)
  to authenticated, service_role;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
