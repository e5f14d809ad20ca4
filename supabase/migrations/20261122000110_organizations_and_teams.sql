-- Organizations, their roles and users; teams and their members; invitations to either.
-- Then the permission helpers every tenant policy goes through (app.has_permission and
-- app.accounts_with_permission), resolved as the data-model contract describes.

-- ---------------------------------------------------------------------------------------------
-- Tables.

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  -- The owner and the feature list live on the account (accounts.owner_id, accounts.features):
  -- one source of truth for every kind of account.
  account_id uuid not null unique references public.accounts (id) on delete cascade,
  slug public.slug not null unique,
  name text not null check (char_length(btrim(name)) between 1 and 255),
  photo_url text check (photo_url is null or photo_url ~ '^https?://'),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.organization_roles (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 100),
  permissions public.organization_permission_list,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, name),
  -- Lets organization_users reference a role of the same organization only.
  unique (organization_id, id)
);

create table public.organization_users (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- Profiles (not auth.users) so the API can embed a member's name and e-mail.
  user_id uuid not null references public.profiles (id) on delete cascade,
  role_id uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, user_id),
  foreign key (organization_id, role_id)
    references public.organization_roles (organization_id, id) on delete restrict
);
create index organization_users_user_id_idx on public.organization_users (user_id);
create index organization_users_role_id_idx on public.organization_users (organization_id, role_id);

create table public.teams (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null unique references public.accounts (id) on delete cascade,
  -- Null for a standalone team owned by a user.
  organization_id uuid references public.organizations (id) on delete cascade,
  slug public.slug not null,
  name text not null check (char_length(btrim(name)) between 1 and 255),
  archived_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Team pages live at organization/{org}/team/{team}: slugs are unique per organization, and
  -- standalone teams share one namespace.
  constraint teams_slug_key unique nulls not distinct (organization_id, slug)
);
create index teams_organization_id_idx on public.teams (organization_id);

create table public.team_members (
  team_id uuid not null references public.teams (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null check (role in ('admin', 'member', 'viewer')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (team_id, user_id)
);
create index team_members_user_id_idx on public.team_members (user_id);

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  -- An organization invitation names the organization; a team invitation names the team (and
  -- its organization, filled in by a trigger, when the team belongs to one).
  organization_id uuid references public.organizations (id) on delete cascade,
  team_id uuid references public.teams (id) on delete cascade,
  source text not null generated always as (
    case when team_id is null then 'organization' else 'team' end
  ) stored,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 255),
  organization_role_id uuid references public.organization_roles (id) on delete cascade,
  team_role text check (team_role in ('admin', 'member', 'viewer')),
  message text check (char_length(message) <= 1000),
  inviter_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint invitations_target_check check (
    (team_id is not null and team_role is not null and organization_role_id is null)
    or (team_id is null and organization_id is not null and organization_role_id is not null
        and team_role is null)
  )
);
create index invitations_email_idx on public.invitations (lower(email));
create index invitations_organization_id_idx on public.invitations (organization_id);
create index invitations_team_id_idx on public.invitations (team_id);
create index invitations_inviter_id_idx on public.invitations (inviter_id);
create index invitations_organization_role_id_idx on public.invitations (organization_role_id);
-- One open invitation per address and target.
create unique index invitations_one_pending_idx on public.invitations (
  coalesce(team_id, organization_id), lower(email)
) where status = 'pending';

alter table public.profiles
  add constraint profiles_current_team_id_fkey
  foreign key (current_team_id) references public.teams (id) on delete set null;
create index profiles_current_team_id_idx on public.profiles (current_team_id);

-- updated_at and protected columns.
create trigger organizations_touch_updated_at before update on public.organizations
  for each row execute function app.touch_updated_at();
create trigger organization_roles_touch_updated_at before update on public.organization_roles
  for each row execute function app.touch_updated_at();
create trigger organization_users_touch_updated_at before update on public.organization_users
  for each row execute function app.touch_updated_at();
create trigger teams_touch_updated_at before update on public.teams
  for each row execute function app.touch_updated_at();
create trigger team_members_touch_updated_at before update on public.team_members
  for each row execute function app.touch_updated_at();
create trigger invitations_touch_updated_at before update on public.invitations
  for each row execute function app.touch_updated_at();

create trigger organizations_protect_columns before update on public.organizations
  for each row execute function app.protect_columns('nobody', 'id', 'account_id', 'archived_at');
create trigger organization_roles_protect_columns before update on public.organization_roles
  for each row execute function app.protect_columns('nobody', 'id', 'organization_id');
create trigger organization_users_protect_columns before update on public.organization_users
  for each row execute function app.protect_columns('nobody', 'organization_id', 'user_id');
create trigger teams_protect_columns before update on public.teams
  for each row execute function app.protect_columns('nobody', 'id', 'account_id', 'organization_id');
create trigger team_members_protect_columns before update on public.team_members
  for each row execute function app.protect_columns('nobody', 'team_id', 'user_id');
-- Invitations change status only through accept_invitation / reject_invitation.
create trigger invitations_protect_columns before update on public.invitations
  for each row execute function app.protect_columns(
    'nobody', 'id', 'organization_id', 'team_id', 'email', 'inviter_id', 'status',
    'organization_role_id', 'team_role'
  );

-- Team and organization names are their account's name.
create function app.sync_account_name() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.accounts set name = new.name where id = new.account_id and name <> new.name;
  return new;
end;
$$;
create trigger organizations_sync_account_name after update of name on public.organizations
  for each row execute function app.sync_account_name();
create trigger teams_sync_account_name after update of name on public.teams
  for each row execute function app.sync_account_name();

-- Deleting an organization or a team removes its account (and so everything the account owns).
create function app.delete_owned_account() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.accounts where id = old.account_id;
  return old;
end;
$$;
create trigger organizations_delete_account after delete on public.organizations
  for each row execute function app.delete_owned_account();
create trigger teams_delete_account after delete on public.teams
  for each row execute function app.delete_owned_account();

-- ---------------------------------------------------------------------------------------------
-- Permission resolution.

create function app.permission_names() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array[
    'links.read', 'links.create', 'links.manage', 'settings', 'billing', 'api',
    'teams', 'subscriptions', 'invitations', 'members', 'domains', 'profile', 'users', 'roles',
    'supervisor', 'sso', 'audit'
  ]::text[]
$$;

create function app.team_role_permissions(p_role text) returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select case p_role
    when 'admin' then array[
      'links.read', 'links.create', 'links.manage', 'settings', 'members', 'domains', 'api',
      'billing'
    ]::text[]
    when 'member' then array['links.read', 'links.create']::text[]
    when 'viewer' then array['links.read']::text[]
    else '{}'::text[]
  end
$$;

-- What an organization role's permissions grant on the organization's teams.
create function app.org_role_team_permissions(p_permissions text[]) returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array(
    select distinct g.permission
    from unnest(p_permissions) as r(permission)
    cross join lateral unnest(case r.permission
      when 'supervisor' then array['links.read', 'links.create', 'links.manage']
      when 'teams' then array['settings', 'members']
      when 'domains' then array['domains']
      when 'subscriptions' then array['billing']
      else '{}'::text[]
    end) as g(permission)
    order by 1
  )
$$;

-- Every (account, permission) the caller holds. The single place permissions resolve; the
-- helpers below only filter it. Staff gets nothing here: kiosk policies ask app.is_staff().
create function app.caller_grants() returns table (account_id uuid, permission text)
language sql stable security definer
set search_path = ''
as $$
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
  cross join unnest(app.org_role_team_permissions(r.permissions::text[])) as p(permission)
$$;

create function app.assert_permission_name(p_permission text) returns void
language plpgsql immutable security definer
set search_path = ''
as $$
begin
  if p_permission is null or not p_permission = any (app.permission_names()) then
    raise exception 'unknown permission "%"', p_permission using errcode = '22023';
  end if;
end;
$$;

create function app.has_permission(p_account_id uuid, p_permission text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.assert_permission_name(p_permission);
  return exists (
    select 1 from app.caller_grants() g
    where g.account_id = p_account_id and g.permission = p_permission
  );
end;
$$;

create function app.accounts_with_permission(p_permission text) returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.assert_permission_name(p_permission);
  return query
    select distinct g.account_id from app.caller_grants() g where g.permission = p_permission;
end;
$$;

-- Accounts where the caller holds any permission at all (to see that the account exists).
create function app.caller_account_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select distinct g.account_id from app.caller_grants() g
$$;

-- Organizations the caller belongs to as owner or organization user.
create function app.member_organization_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select o.id
  from public.organizations o
  join public.accounts a on a.id = o.account_id
  where a.owner_id = (select auth.uid())
  union
  select ou.organization_id from public.organization_users ou
  where ou.user_id = (select auth.uid())
$$;

-- Organizations the caller can see: their own, and those of the teams they are on.
create function app.visible_organization_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select id from app.member_organization_ids() as m(id)
  union
  select t.organization_id
  from public.team_members tm
  join public.teams t on t.id = tm.team_id
  where tm.user_id = (select auth.uid()) and t.organization_id is not null
$$;

-- People whose profile the caller may see: whoever shares a team or organization with them,
-- owners of accounts they can see, and whoever invited them.
create function app.visible_user_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select a.owner_id from public.accounts a where a.id in (select app.caller_account_ids())
  union
  select tm.user_id
  from public.team_members tm
  join public.teams t on t.id = tm.team_id
  where t.account_id in (select app.caller_account_ids())
  union
  select ou.user_id from public.organization_users ou
  where ou.organization_id in (select app.member_organization_ids())
  union
  select i.inviter_id from public.invitations i
  where i.status = 'pending' and lower(i.email) = lower(app.caller_email())
$$;

-- Invitations the caller may read: addressed to them, sent by them, or to a target where they
-- manage invitations (organization: `invitations`; team: `members`).
create function app.can_manage_invitation(p_organization_id uuid, p_team_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select case
    when p_team_id is not null then exists (
      select 1 from public.teams t
      where t.id = p_team_id and app.has_permission(t.account_id, 'members')
    )
    else exists (
      select 1 from public.organizations o
      where o.id = p_organization_id and app.has_permission(o.account_id, 'invitations')
    )
  end
$$;

-- What the caller's pending invitations point at: the invitations popover shows the
-- organization (slug, name, photo), the team (slug, name) and the organization role's name
-- before the invitee belongs to any of them.
create function app.caller_invitation_targets()
returns table (organization_id uuid, team_id uuid, organization_role_id uuid)
language sql stable security definer
set search_path = ''
as $$
  select i.organization_id, i.team_id, i.organization_role_id
  from public.invitations i
  where i.status = 'pending' and lower(i.email) = lower(app.caller_email())
$$;

grant execute on function
  app.caller_invitation_targets(),
  app.permission_names(), app.team_role_permissions(text), app.org_role_team_permissions(text[]),
  app.caller_grants(), app.assert_permission_name(text), app.has_permission(uuid, text),
  app.accounts_with_permission(text), app.caller_account_ids(), app.member_organization_ids(),
  app.visible_organization_ids(), app.visible_user_ids(), app.can_manage_invitation(uuid, uuid)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Invitation rules that hold however an invitation is created.

create function app.prepare_invitation() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_team_org uuid;
begin
  new.email := lower(btrim(new.email));
  if new.team_id is not null then
    select t.organization_id into v_team_org from public.teams t where t.id = new.team_id;
    new.organization_id := v_team_org;
  end if;
  if new.organization_role_id is not null and not exists (
    select 1 from public.organization_roles r
    where r.id = new.organization_role_id and r.organization_id = new.organization_id
  ) then
    raise exception using errcode = 'PT422', message = 'role_invalid',
      detail = 'The selected role is invalid.', hint = 'role';
  end if;
  if app.invitee_is_member(new.organization_id, new.team_id, new.email) then
    raise exception using errcode = 'PT409', message = 'already_member',
      detail = 'That user is already on the team or invited', hint = 'invitation';
  end if;
  if exists (
    select 1 from public.invitations i
    where i.status = 'pending' and lower(i.email) = new.email
      and coalesce(i.team_id, i.organization_id) = coalesce(new.team_id, new.organization_id)
  ) then
    raise exception using errcode = 'PT409', message = 'already_member',
      detail = 'That user is already on the team or invited', hint = 'invitation';
  end if;
  return new;
end;
$$;

-- True when the person with this e-mail already belongs to the invitation's target.
create function app.invitee_is_member(p_organization_id uuid, p_team_id uuid, p_email text)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select case
    when p_team_id is not null then exists (
      select 1 from public.team_members tm
      join public.profiles p on p.id = tm.user_id
      where tm.team_id = p_team_id and lower(p.email) = lower(p_email)
    )
    else exists (
      select 1 from public.organization_users ou
      join public.profiles p on p.id = ou.user_id
      where ou.organization_id = p_organization_id and lower(p.email) = lower(p_email)
    ) or exists (
      select 1 from public.organizations o
      join public.accounts a on a.id = o.account_id
      join public.profiles p on p.id = a.owner_id
      where o.id = p_organization_id and lower(p.email) = lower(p_email)
    )
  end
$$;
grant execute on function app.invitee_is_member(uuid, uuid, text) to authenticated, service_role;

-- True when the user owns the organization or is one of its users.
create function app.is_organization_member(p_organization_id uuid, p_user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.organization_users ou
    where ou.organization_id = p_organization_id and ou.user_id = p_user_id
  ) or exists (
    select 1 from public.organizations o
    join public.accounts a on a.id = o.account_id
    where o.id = p_organization_id and a.owner_id = p_user_id
  )
$$;
grant execute on function app.is_organization_member(uuid, uuid) to authenticated, service_role;

create trigger invitations_prepare before insert on public.invitations
  for each row execute function app.prepare_invitation();

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.organizations enable row level security;
alter table public.organization_roles enable row level security;
alter table public.organization_users enable row level security;
alter table public.teams enable row level security;
alter table public.team_members enable row level security;
alter table public.invitations enable row level security;

-- Accounts and profiles (their tables came first; their membership policies need the above).
create policy "Members can read the accounts they belong to" on public.accounts
  for select to authenticated
  using (id in (select app.caller_account_ids()));

create policy "Users can read the profiles of people they work with" on public.profiles
  for select to authenticated
  using (id in (select app.visible_user_ids()));

-- Organizations.
create policy "Members can read their organizations" on public.organizations
  for select to authenticated
  using (id in (select app.visible_organization_ids()));

create policy "Holders of the profile permission can update their organization" on public.organizations
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('profile')))
  with check (account_id in (select app.accounts_with_permission('profile')));

create policy "Owners can delete their organization" on public.organizations
  for delete to authenticated
  using (account_id in (
    select a.id from public.accounts a where a.owner_id = (select auth.uid())
  ));

create policy "Invitees can read the organizations they are invited to" on public.organizations
  for select to authenticated
  using (id in (select t.organization_id from app.caller_invitation_targets() t));

create policy "Staff can read every organization" on public.organizations
  for select to authenticated
  using ((select app.is_staff()));

-- Organization roles.
create policy "Organization members can read their organization's roles" on public.organization_roles
  for select to authenticated
  using (organization_id in (select app.member_organization_ids()));

create policy "Holders of the roles permission can manage roles" on public.organization_roles
  for all to authenticated
  using (organization_id in (
    select o.id from public.organizations o
    where o.account_id in (select app.accounts_with_permission('roles'))
  ))
  with check (organization_id in (
    select o.id from public.organizations o
    where o.account_id in (select app.accounts_with_permission('roles'))
  ));

create policy "Invitees can read the role they are invited with" on public.organization_roles
  for select to authenticated
  using (id in (select t.organization_role_id from app.caller_invitation_targets() t));

create policy "Staff can read every organization role" on public.organization_roles
  for select to authenticated
  using ((select app.is_staff()));

-- Organization users.
create policy "Organization members can read their organization's users" on public.organization_users
  for select to authenticated
  using (organization_id in (select app.member_organization_ids()));

-- People join an organization only by accepting an invitation (accept_invitation); managing
-- users never includes changing one's own role (no self-promotion).
create policy "Holders of the users permission can change other users' roles" on public.organization_users
  for update to authenticated
  using (
    user_id <> (select auth.uid())
    and organization_id in (
      select o.id from public.organizations o
      where o.account_id in (select app.accounts_with_permission('users'))
    )
  )
  with check (user_id <> (select auth.uid()));

create policy "Holders of the users permission can remove users, and users can leave" on public.organization_users
  for delete to authenticated
  using (
    user_id = (select auth.uid())
    or organization_id in (
      select o.id from public.organizations o
      where o.account_id in (select app.accounts_with_permission('users'))
    )
  );

create policy "Staff can read every organization user" on public.organization_users
  for select to authenticated
  using ((select app.is_staff()));

-- Teams.
create policy "Members can read their teams" on public.teams
  for select to authenticated
  using (
    account_id in (select app.caller_account_ids())
    or organization_id in (select app.member_organization_ids())
  );

create policy "Holders of the settings permission can update their team" on public.teams
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('settings')))
  with check (account_id in (select app.accounts_with_permission('settings')));

create policy "Team owners and holders of the teams permission can delete a team" on public.teams
  for delete to authenticated
  using (
    account_id in (select a.id from public.accounts a where a.owner_id = (select auth.uid()))
    or organization_id in (
      select o.id from public.organizations o
      where o.account_id in (select app.accounts_with_permission('teams'))
    )
  );

create policy "Invitees can read the teams they are invited to" on public.teams
  for select to authenticated
  using (id in (select t.team_id from app.caller_invitation_targets() t));

create policy "Staff can read every team" on public.teams
  for select to authenticated
  using ((select app.is_staff()));

-- Team members.
create policy "Members can read their team's members" on public.team_members
  for select to authenticated
  using (team_id in (
    select t.id from public.teams t where t.account_id in (select app.caller_account_ids())
  ));

-- Inside an organization, its people can be put on a team directly; anyone else joins by
-- accepting an invitation.
create policy "Holders of the members permission can add organization people to a team" on public.team_members
  for insert to authenticated
  with check (team_id in (
    select t.id from public.teams t
    where t.account_id in (select app.accounts_with_permission('members'))
      and app.is_organization_member(t.organization_id, user_id)
  ));

create policy "Holders of the members permission can change other members' roles" on public.team_members
  for update to authenticated
  using (
    user_id <> (select auth.uid())
    and team_id in (
      select t.id from public.teams t
      where t.account_id in (select app.accounts_with_permission('members'))
    )
  )
  with check (user_id <> (select auth.uid()));

create policy "Holders of the members permission can remove members, and members can leave" on public.team_members
  for delete to authenticated
  using (
    user_id = (select auth.uid())
    or team_id in (
      select t.id from public.teams t
      where t.account_id in (select app.accounts_with_permission('members'))
    )
  );

create policy "Staff can read every team member" on public.team_members
  for select to authenticated
  using ((select app.is_staff()));

-- Invitations.
create policy "Invitees can read invitations sent to them" on public.invitations
  for select to authenticated
  using (lower(email) = lower((select app.caller_email())));

create policy "Inviters and invitation managers can read invitations" on public.invitations
  for select to authenticated
  using (
    inviter_id = (select auth.uid())
    or app.can_manage_invitation(organization_id, team_id)
  );

create policy "Invitation managers can invite people" on public.invitations
  for insert to authenticated
  with check (
    inviter_id = (select auth.uid())
    and status = 'pending'
    and app.can_manage_invitation(organization_id, team_id)
  );

create policy "Inviters and invitation managers can withdraw pending invitations" on public.invitations
  for delete to authenticated
  using (
    status = 'pending'
    and (inviter_id = (select auth.uid()) or app.can_manage_invitation(organization_id, team_id))
  );

create policy "Staff can read every invitation" on public.invitations
  for select to authenticated
  using ((select app.is_staff()));

-- Organizations and teams are created by create_organization / create_team (they need an
-- account row too); nothing here is for anonymous callers.
revoke all on public.organizations, public.organization_roles, public.organization_users,
  public.teams, public.team_members, public.invitations from anon;
revoke truncate, references, trigger on public.organizations, public.organization_roles,
  public.organization_users, public.teams, public.team_members, public.invitations
  from authenticated;
revoke insert on public.organizations, public.teams, public.organization_users from authenticated;
revoke update on public.invitations from authenticated;

-- Nothing in `app` is executable by PUBLIC; the grants above are the deliberate ones.
revoke execute on all functions in schema app from public;
