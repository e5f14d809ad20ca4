-- Writes on organizations and teams that have rules: create an organization or a team, switch
-- team, accept or reject an invitation, archive or unarchive an organization. Each raises the
-- contract's coded errors (errcode PTxxx → HTTP status) for the apps to map to the spec's
-- messages. Only signed-in callers may execute them.

-- Raises one coded error. Keeps every RPC's `raise` to one line and the messages in one place.
-- Volatile on purpose: the planner must never fold a call with a constant argument early.
create function app.raise_coded(p_code text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_status text;
  v_detail text;
  v_hint text;
begin
  select e.status, e.detail, e.hint into v_status, v_detail, v_hint
  from (values
    ('permission_denied', '403', 'Permission denied', 'form'),
    ('team_required', '422', 'Team required.', 'team'),
    ('unknown_team', '404', 'Unknown team.', 'team'),
    ('invitation_not_found', '404', 'Invitation not found.', 'invitation'),
    ('already_member', '409', 'That user is already on the team or invited', 'invitation'),
    ('team_limit_reached', '402',
      'Your current plan doesn''t allow you to create more teams or invite more members', 'form'),
    ('organization_not_found', '404', 'Organization not found.', 'organization'),
    ('archive_invalid', '422', 'The archive field must be true or false.', 'archive'),
    ('name_required', '422', 'The name field is required.', 'name'),
    ('slug_invalid', '422',
      'The slug may only contain lower-case letters, numbers and dashes.', 'slug'),
    ('slug_taken', '422', 'The slug has already been taken.', 'slug'),
    ('notifications_required', '422', 'The notifications field is required.', 'notifications'),
    ('notification_not_found', '404', 'Notification not found.', 'notifications')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if v_status is null then
    raise exception 'unknown error code "%"', p_code using errcode = '22023';
  end if;
  raise exception using errcode = 'PT' || v_status, message = p_code, detail = v_detail,
    hint = v_hint;
end;
$$;
grant execute on function app.raise_coded(text) to authenticated, service_role;

-- The signed-in caller, or permission_denied (service-role calls carry no user).
create function app.require_caller() returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    perform app.raise_coded('permission_denied');
  end if;
  return v_uid;
end;
$$;
grant execute on function app.require_caller() to authenticated, service_role;

-- Checks a name and slug for a new organization or team.
create function app.validate_name_and_slug(p_name text, p_slug text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_name is null or btrim(p_name) = '' then
    perform app.raise_coded('name_required');
  end if;
  if p_slug is null or p_slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' or char_length(p_slug) > 64 then
    perform app.raise_coded('slug_invalid');
  end if;
end;
$$;
grant execute on function app.validate_name_and_slug(text, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------

create function public.create_organization(p_name text, p_slug text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_account_id uuid;
  v_organization_id uuid;
begin
  perform app.validate_name_and_slug(p_name, p_slug);
  if not app.account_has_feature(
    (select p.personal_account_id from public.profiles p where p.id = v_uid), 'support_teams'
  ) then
    perform app.raise_coded('permission_denied');
  end if;
  if exists (select 1 from public.organizations o where o.slug = p_slug) then
    perform app.raise_coded('slug_taken');
  end if;
  insert into public.accounts (kind, owner_id, name)
  values ('organization', v_uid, btrim(p_name))
  returning id into v_account_id;
  insert into public.organizations (account_id, slug, name)
  values (v_account_id, p_slug, btrim(p_name))
  returning id into v_organization_id;
  return v_organization_id;
end;
$$;

-- A team inside an organization needs the `teams` permission there and room under the
-- organization's max_teams; a standalone team needs support_teams and room under the creator's
-- max_teams. The creator becomes the team's owner and admin.
create function public.create_team(p_name text, p_slug text, p_organization_id uuid default null)
returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_personal_account_id uuid;
  v_org_account_id uuid;
  v_limit bigint;
  v_count bigint;
  v_account_id uuid;
  v_team_id uuid;
begin
  perform app.validate_name_and_slug(p_name, p_slug);
  select p.personal_account_id into v_personal_account_id from public.profiles p where p.id = v_uid;
  if p_organization_id is not null then
    select o.account_id into v_org_account_id
    from public.organizations o
    where o.id = p_organization_id and o.id in (select app.visible_organization_ids());
    if v_org_account_id is null then
      perform app.raise_coded('organization_not_found');
    end if;
    if not app.has_permission(v_org_account_id, 'teams') then
      perform app.raise_coded('permission_denied');
    end if;
    v_limit := app.account_limit(v_org_account_id, 'max_teams');
    select count(*) into v_count from public.teams t where t.organization_id = p_organization_id;
  else
    if not app.account_has_feature(v_personal_account_id, 'support_teams') then
      perform app.raise_coded('team_limit_reached');
    end if;
    v_limit := app.account_limit(v_personal_account_id, 'max_teams');
    select count(*) into v_count
    from public.teams t join public.accounts a on a.id = t.account_id
    where t.organization_id is null and a.owner_id = v_uid;
  end if;
  if v_limit is not null and v_count >= v_limit then
    perform app.raise_coded('team_limit_reached');
  end if;
  if exists (
    select 1 from public.teams t
    where t.slug = p_slug and t.organization_id is not distinct from p_organization_id
  ) then
    perform app.raise_coded('slug_taken');
  end if;
  insert into public.accounts (kind, owner_id, name)
  values ('team', v_uid, btrim(p_name))
  returning id into v_account_id;
  insert into public.teams (account_id, organization_id, slug, name)
  values (v_account_id, p_organization_id, p_slug, btrim(p_name))
  returning id into v_team_id;
  insert into public.team_members (team_id, user_id, role) values (v_team_id, v_uid, 'admin');
  return v_team_id;
end;
$$;

-- Team mode: work in a team the caller belongs to (spec: 'Team required.', 'Unknown team.').
create function public.switch_team(p_team_id uuid) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
begin
  if p_team_id is null then
    perform app.raise_coded('team_required');
  end if;
  if not exists (
    select 1
    from public.teams t
    left join public.organizations o on o.id = t.organization_id
    where t.id = p_team_id and t.archived_at is null and o.archived_at is null
      and t.account_id in (select app.caller_account_ids())
  ) then
    perform app.raise_coded('unknown_team');
  end if;
  update public.profiles set current_team_id = p_team_id, team_mode = true where id = v_uid;
  return p_team_id;
end;
$$;

-- Back to the personal workspace.
create function public.leave_team_mode() returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
begin
  update public.profiles set current_team_id = null, team_mode = false where id = v_uid;
end;
$$;

-- The caller's own pending invitation, locked; invitation_not_found otherwise (someone else's,
-- already answered, or unknown: the caller cannot tell these apart).
create function app.pending_invitation_for_caller(p_invitation_id uuid)
returns public.invitations
language plpgsql security definer
set search_path = ''
as $$
declare
  v_invitation public.invitations;
begin
  select * into v_invitation
  from public.invitations i
  where i.id = p_invitation_id and i.status = 'pending'
    and lower(i.email) = lower(app.caller_email())
  for update;
  if not found then
    perform app.raise_coded('invitation_not_found');
  end if;
  return v_invitation;
end;
$$;
grant execute on function app.pending_invitation_for_caller(uuid) to authenticated, service_role;

create function public.accept_invitation(p_invitation_id uuid) returns public.invitations
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_invitation public.invitations := app.pending_invitation_for_caller(p_invitation_id);
  v_account_id uuid;
  v_limit bigint;
  v_count bigint;
begin
  if app.invitee_is_member(v_invitation.organization_id, v_invitation.team_id,
      v_invitation.email) then
    perform app.raise_coded('already_member');
  end if;
  if v_invitation.team_id is not null then
    select t.account_id into v_account_id from public.teams t where t.id = v_invitation.team_id;
    select count(*) into v_count from public.team_members m where m.team_id = v_invitation.team_id;
  else
    select o.account_id into v_account_id
    from public.organizations o where o.id = v_invitation.organization_id;
    select count(*) into v_count
    from public.organization_users u where u.organization_id = v_invitation.organization_id;
  end if;
  v_limit := app.account_limit(v_account_id, 'max_members');
  if v_limit is not null and v_count >= v_limit then
    perform app.raise_coded('team_limit_reached');
  end if;
  if v_invitation.team_id is not null then
    insert into public.team_members (team_id, user_id, role)
    values (v_invitation.team_id, v_uid, v_invitation.team_role);
  else
    insert into public.organization_users (organization_id, user_id, role_id)
    values (v_invitation.organization_id, v_uid, v_invitation.organization_role_id);
  end if;
  update public.invitations set status = 'accepted' where id = v_invitation.id
  returning * into v_invitation;
  return v_invitation;
end;
$$;

create function public.reject_invitation(p_invitation_id uuid) returns public.invitations
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_invitation public.invitations := app.pending_invitation_for_caller(p_invitation_id);
begin
  update public.invitations set status = 'rejected' where id = v_invitation.id
  returning * into v_invitation;
  return v_invitation;
end;
$$;

-- PATCH organization/{o}/archive { archive: true | false }. Only the owner archives or restores.
create function public.archive_organization(p_organization_id uuid, p_archive boolean)
returns public.organizations
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_organization public.organizations;
begin
  if p_archive is null then
    perform app.raise_coded('archive_invalid');
  end if;
  select o.* into v_organization
  from public.organizations o
  where o.id = p_organization_id and o.id in (select app.visible_organization_ids())
  for update;
  if not found then
    perform app.raise_coded('organization_not_found');
  end if;
  if not exists (
    select 1 from public.accounts a where a.id = v_organization.account_id and a.owner_id = v_uid
  ) then
    perform app.raise_coded('permission_denied');
  end if;
  update public.organizations
  set archived_at = case when p_archive then coalesce(archived_at, now()) end
  where id = p_organization_id
  returning * into v_organization;
  return v_organization;
end;
$$;

revoke execute on function
  public.create_organization(text, text), public.create_team(text, text, uuid),
  public.switch_team(uuid), public.leave_team_mode(), public.accept_invitation(uuid),
  public.reject_invitation(uuid), public.archive_organization(uuid, boolean)
  from public, anon;
grant execute on function
  public.create_organization(text, text), public.create_team(text, text, uuid),
  public.switch_team(uuid), public.leave_team_mode(), public.accept_invitation(uuid),
  public.reject_invitation(uuid), public.archive_organization(uuid, boolean)
  to authenticated, service_role;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
