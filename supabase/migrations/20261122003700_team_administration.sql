-- Team administration (issue 16, first increment): who reaches organizations, the team pages'
-- writes (profile, photo, membership), the seat limit on invitations and team mode's cleanup.
--
-- Every write here is either an RPC that checks its permission once, through app.has_permission,
-- or a plain table write under the RLS policies of 20261122000110 (team name through
-- update_team, the photo address, invitations). Each RPC changes its rows with one ordinary
-- insert/update/delete, so an audit trigger on those tables sees every change without any RPC
-- knowing about it.

-- ---------------------------------------------------------------------------------------------
-- 1. Preview features: switches staff turn on per user ahead of a rollout. `organizations` opens
-- the organization pages to a user who belongs to none yet (members and staff reach them anyway).

alter table public.profiles
  add column preview_features text[] not null default '{}'
  constraint profiles_preview_features_known check (
    array_position(preview_features, null) is null
    and preview_features <@ array['organizations']::text[]
  );
comment on column public.profiles.preview_features is
  'Preview switches staff turn on per user (organizations: the organization pages).';
create trigger profiles_protect_preview_features before update on public.profiles
  for each row execute function app.protect_columns('staff', 'preview_features');

-- ---------------------------------------------------------------------------------------------
-- 1b. The organization permission `members` is the team settings' Members link (app-shell 6:
-- "Team settings permissions: teams, members, domains, supervisor"): it manages the members of
-- the organization's teams, as `teams` already did.

create or replace function app.org_role_team_permissions(p_permissions text[]) returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array(
    select distinct g.permission
    from unnest(p_permissions) as r(permission)
    cross join lateral unnest(case r.permission
      when 'supervisor' then array['links.read', 'links.create', 'links.manage']
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
-- 2. Team photos: files of the public `avatars` bucket under `teams/<team id>/<uuid>.png|jpg`,
-- written by whoever holds the team's `settings` permission; the team's photo address may name
-- only such a file (the profile photo's rule, 20261122001500).

alter table public.teams add column photo_url text;
alter table public.teams add constraint teams_photo_url_own_file check (
  photo_url is null
  or photo_url ~ ('^https?://[^/?#]+/storage/v1/object/public/avatars/teams/' || id::text
    || '/[0-9a-f-]{36}\.(png|jpg)$')
);

-- True when the object name lies in the folder of a team whose settings the caller manages;
-- p_strict also wants the file name the portal gives (for writes).
create function app.is_managed_team_photo_path(p_name text, p_strict boolean) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (storage.foldername(p_name))[1] = 'teams'
    and (not p_strict or p_name ~ '^teams/[0-9a-f-]{36}/[0-9a-f-]{36}\.(png|jpg)$')
    and exists (
      select 1 from public.teams t
      where t.id::text = (storage.foldername(p_name))[2]
        and app.has_permission(t.account_id, 'settings')
    )
$$;
comment on function app.is_managed_team_photo_path(text, boolean) is
  'The name is in the avatars folder of a team whose settings the caller manages.';
grant execute on function app.is_managed_team_photo_path(text, boolean) to authenticated;

create policy "Team settings managers can list their team's photos" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and app.is_managed_team_photo_path(name, false));

create policy "Team settings managers can add team photos" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and app.is_managed_team_photo_path(name, true));

create policy "Team settings managers can replace team photos" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and app.is_managed_team_photo_path(name, false))
  with check (bucket_id = 'avatars' and app.is_managed_team_photo_path(name, true));

create policy "Team settings managers can delete team photos" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and app.is_managed_team_photo_path(name, false));

-- ---------------------------------------------------------------------------------------------
-- 3. Seats: an invitation takes a seat until it is answered, so members plus pending
-- invitations may not exceed the account's max_members, however the invitation is created.
-- (Named to fire after invitations_prepare, which fills organization_id and refuses people
-- already on the team or invited: those hear that rather than the limit.)

create function app.check_invitation_seats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_account_id uuid;
  v_limit bigint;
  v_taken bigint;
begin
  if new.team_id is not null then
    select t.account_id into v_account_id from public.teams t where t.id = new.team_id;
    select (select count(*) from public.team_members m where m.team_id = new.team_id)
      + (select count(*) from public.invitations i
         where i.team_id = new.team_id and i.status = 'pending')
    into v_taken;
  else
    select o.account_id into v_account_id
    from public.organizations o where o.id = new.organization_id;
    select (select count(*) from public.organization_users u
            where u.organization_id = new.organization_id)
      + (select count(*) from public.invitations i
         where i.team_id is null and i.organization_id = new.organization_id
           and i.status = 'pending')
    into v_taken;
  end if;
  v_limit := app.account_limit(v_account_id, 'max_members');
  if v_limit is not null and v_taken >= v_limit then
    perform app.raise_coded('team_limit_reached');
  end if;
  return new;
end;
$$;

create trigger invitations_seat_limit before insert on public.invitations
  for each row when (new.status = 'pending')
  execute function app.check_invitation_seats();

-- ---------------------------------------------------------------------------------------------
-- 4. Team mode follows membership: whoever leaves or is removed from the team they work in is
-- back in their personal workspace.

create function app.leave_team_mode_on_removal() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.profiles
  set current_team_id = null, team_mode = false
  where id = old.user_id and current_team_id = old.team_id;
  return old;
end;
$$;

create trigger team_members_leave_team_mode after delete on public.team_members
  for each row execute function app.leave_team_mode_on_removal();

-- ---------------------------------------------------------------------------------------------
-- 5. RPCs of the team pages.

-- The codes of this area, then app.raise_coded's catalogue for the shared ones.
create function app.team_error(p_code text) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  case p_code
    when 'user_not_in_team' then
      raise exception using errcode = 'PT404', message = p_code,
        detail = 'The user does not belong to the given team', hint = 'user';
    when 'not_team_member' then
      raise exception using errcode = 'PT403', message = p_code,
        detail = 'You are not a selected team member', hint = 'team';
    when 'team_owner_fixed' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'The team owner''s membership cannot be changed.', hint = 'user';
    when 'role_invalid' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'The selected role is invalid.', hint = 'role';
    when 'own_membership' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'You cannot change your own membership here; leave the team instead.',
        hint = 'user';
    else
      perform app.raise_coded(p_code);
  end case;
end;
$$;
grant execute on function app.team_error(text) to authenticated, service_role;

-- The team (locked) when the caller may see it, else unknown_team: a team the caller cannot see
-- and one that does not exist look the same.
create function app.visible_team(p_team_id uuid) returns public.teams
language plpgsql security definer
set search_path = ''
as $$
declare
  v_team public.teams;
begin
  if p_team_id is null then
    perform app.team_error('team_required');
  end if;
  select t.* into v_team from public.teams t
  where t.id = p_team_id
    and (t.account_id in (select app.caller_account_ids())
      or t.organization_id in (select app.member_organization_ids()))
  for update;
  if not found then
    perform app.team_error('unknown_team');
  end if;
  return v_team;
end;
$$;
grant execute on function app.visible_team(uuid) to authenticated, service_role;

-- Team profile: name and slug (settings permission). Team pages live at
-- organization/{org}/team/{slug}, so the slug is unique per organization.
create function public.update_team(p_team_id uuid, p_name text, p_slug text)
returns public.teams
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
begin
  if not app.has_permission(v_team.account_id, 'settings') then
    perform app.team_error('permission_denied');
  end if;
  perform app.validate_name_and_slug(p_name, p_slug);
  if exists (
    select 1 from public.teams t
    where t.slug = p_slug and t.id <> v_team.id
      and t.organization_id is not distinct from v_team.organization_id
  ) then
    perform app.team_error('slug_taken');
  end if;
  update public.teams set name = btrim(p_name), slug = p_slug
  where id = v_team.id
  returning * into v_team;
  return v_team;
end;
$$;

-- The membership row of p_user_id on the team, locked; user_not_in_team when there is none.
create function app.team_membership(p_team_id uuid, p_user_id uuid) returns public.team_members
language plpgsql security definer
set search_path = ''
as $$
declare
  v_member public.team_members;
begin
  select m.* into v_member from public.team_members m
  where m.team_id = p_team_id and m.user_id = p_user_id
  for update;
  if not found then
    perform app.team_error('user_not_in_team');
  end if;
  return v_member;
end;
$$;
grant execute on function app.team_membership(uuid, uuid) to authenticated, service_role;

-- Checks that the caller manages the team's members and that the target is someone else than
-- the caller and the team's owner (whose admin rights come from owning it).
create function app.check_member_change(p_team public.teams, p_user_id uuid, p_uid uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if not app.has_permission(p_team.account_id, 'members') then
    perform app.team_error('permission_denied');
  end if;
  if p_user_id is null then
    perform app.team_error('user_not_in_team');
  end if;
  if p_user_id = p_uid then
    perform app.team_error('own_membership');
  end if;
  if exists (select 1 from public.accounts a where a.id = p_team.account_id and a.owner_id = p_user_id)
  then
    perform app.team_error('team_owner_fixed');
  end if;
end;
$$;
grant execute on function app.check_member_change(public.teams, uuid, uuid)
  to authenticated, service_role;

create function public.change_team_member_role(p_team_id uuid, p_user_id uuid, p_role text)
returns public.team_members
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
  v_member public.team_members;
begin
  perform app.check_member_change(v_team, p_user_id, v_uid);
  if p_role is null or p_role not in ('admin', 'member', 'viewer') then
    perform app.team_error('role_invalid');
  end if;
  v_member := app.team_membership(v_team.id, p_user_id);
  if v_member.role <> p_role then
    update public.team_members set role = p_role
    where team_id = v_team.id and user_id = p_user_id
    returning * into v_member;
  end if;
  return v_member;
end;
$$;

create function public.remove_team_member(p_team_id uuid, p_user_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
begin
  perform app.check_member_change(v_team, p_user_id, v_uid);
  perform app.team_membership(v_team.id, p_user_id);
  delete from public.team_members where team_id = v_team.id and user_id = p_user_id;
end;
$$;

-- Leaving: any member but the owner (who would leave an ownerless team behind).
create function public.leave_team(p_team_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_team public.teams := app.visible_team(p_team_id);
begin
  if not exists (
    select 1 from public.team_members m where m.team_id = v_team.id and m.user_id = v_uid
  ) then
    perform app.team_error('not_team_member');
  end if;
  if exists (select 1 from public.accounts a where a.id = v_team.account_id and a.owner_id = v_uid)
  then
    perform app.team_error('team_owner_fixed');
  end if;
  delete from public.team_members where team_id = v_team.id and user_id = v_uid;
end;
$$;

-- The features that apply to an account the caller can read: its own, its plan's and, for a team
-- inside an organization, the organization's (app.account_has_feature's rule, as a list). Team
-- mode uses a team's.
create function public.account_features(p_account_id uuid) returns text[]
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_account_id is null or not (
    p_account_id in (select app.caller_account_ids()) or app.is_staff()
  ) then
    perform app.team_error('permission_denied');
  end if;
  return array(
    select distinct f.name
    from (
      select unnest(a.features::text[]) as name from public.accounts a where a.id = p_account_id
      union all
      select unnest(oa.features::text[])
      from public.teams t
      join public.organizations o on o.id = t.organization_id
      join public.accounts oa on oa.id = o.account_id
      where t.account_id = p_account_id
      union all
      select unnest(pp.features::text[]) from public.plan_prices pp
      where pp.id = app.account_price_id(p_account_id)
    ) as f
    order by 1
  );
end;
$$;

-- What the caller may do in a team (the team pages show only the actions that would pass):
-- app.caller_grants' permissions on the team's account, or nothing for a team they cannot see.
create function public.my_team_permissions(p_team_id uuid) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array(
    select g.permission
    from app.caller_grants() g
    join public.teams t on t.account_id = g.account_id
    where t.id = p_team_id
    order by 1
  ), '{}')
$$;

revoke execute on function
  public.update_team(uuid, text, text), public.change_team_member_role(uuid, uuid, text),
  public.remove_team_member(uuid, uuid), public.leave_team(uuid), public.account_features(uuid),
  public.my_team_permissions(uuid)
  from public, anon;
grant execute on function
  public.update_team(uuid, text, text), public.change_team_member_role(uuid, uuid, text),
  public.remove_team_member(uuid, uuid), public.leave_team(uuid), public.account_features(uuid),
  public.my_team_permissions(uuid)
  to authenticated, service_role;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
