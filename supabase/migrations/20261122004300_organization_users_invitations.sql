-- Organization users, invitations by e-mail, the helpdesk and the kiosk's preview switch
-- (issue 16, items 3 and 4).
--
--   1. organization/{org}/settings/users: change a user's role, remove a user (RPCs checking the
--      `users` permission once). Each changes its rows with plain writes, so the audit triggers
--      of 20261122000130/20261122003800 record them.
--   2. Invitation links: an invitation mail carries a token; only its SHA-256 is stored. A token
--      is 256 random bits, answers once, expires, and only the invited address may use it.
--   3. The organization helpdesk: support requests its people send and staff answer.
--   4. Staff switching a user's preview features leave a row in the kiosk audit log.

-- ---------------------------------------------------------------------------------------------
-- 0. The codes of this area, then app.team_error's (and app.raise_coded's) catalogue.

create function app.organization_error(p_code text) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  case p_code
    when 'user_not_in_organization' then
      raise exception using errcode = 'PT404', message = p_code,
        detail = 'The user does not belong to the given organization.', hint = 'user';
    when 'own_organization_membership' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'You cannot change your own role or remove yourself here.', hint = 'user';
    when 'invitation_expired' then
      raise exception using errcode = 'PT422', message = p_code,
        detail = 'This invitation has expired. Ask for a new one.', hint = 'invitation';
    when 'invitation_used' then
      raise exception using errcode = 'PT409', message = p_code,
        detail = 'This invitation has already been answered.', hint = 'invitation';
    when 'invitation_other_email' then
      raise exception using errcode = 'PT403', message = p_code,
        detail = 'This invitation was sent to another e-mail address.', hint = 'invitation';
    else
      perform app.team_error(p_code);
  end case;
end;
$$;
grant execute on function app.organization_error(text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- 1. Organization users.

-- The organization (locked) when the caller holds `users` on it. One that does not exist, or
-- that the caller cannot see, is organization_not_found; a member without `users` hears
-- permission_denied.
create function app.organization_for_users_admin(p_organization_id uuid)
returns public.organizations
language plpgsql security definer
set search_path = ''
as $$
declare
  v_organization public.organizations;
begin
  select * into v_organization from public.organizations o
  where o.id = p_organization_id
    and o.id in (select app.visible_organization_ids())
  for update;
  if not found then
    perform app.raise_coded('organization_not_found');
  end if;
  if not app.has_permission(v_organization.account_id, 'users') then
    perform app.raise_coded('permission_denied');
  end if;
  return v_organization;
end;
$$;

create function app.check_organization_user_change(p_organization_id uuid, p_user_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  if p_user_id = (select auth.uid()) then
    perform app.organization_error('own_organization_membership');
  end if;
  if not exists (
    select 1 from public.organization_users u
    where u.organization_id = p_organization_id and u.user_id = p_user_id
  ) then
    -- The owner is no organization user either: their "membership" is ownership.
    perform app.organization_error('user_not_in_organization');
  end if;
end;
$$;

create function public.change_organization_user_role(
  p_organization_id uuid, p_user_id uuid, p_role_id uuid
) returns public.organization_users
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_organization public.organizations := app.organization_for_users_admin(p_organization_id);
  v_row public.organization_users;
begin
  perform app.check_organization_user_change(v_organization.id, p_user_id);
  if p_role_id is null or not exists (
    select 1 from public.organization_roles r
    where r.id = p_role_id and r.organization_id = v_organization.id
  ) then
    perform app.organization_error('role_invalid');
  end if;
  update public.organization_users
  set role_id = p_role_id
  where organization_id = v_organization.id and user_id = p_user_id
  returning * into v_row;
  return v_row;
end;
$$;
comment on function public.change_organization_user_role(uuid, uuid, uuid) is
  'Gives an organization user another of the organization''s roles (the users permission).';

-- Removing a user takes them off the organization's teams too: team membership inside an
-- organization needs organization membership (the policy on team_members says so for adds).
create function public.remove_organization_user(p_organization_id uuid, p_user_id uuid)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_organization public.organizations := app.organization_for_users_admin(p_organization_id);
begin
  perform app.check_organization_user_change(v_organization.id, p_user_id);
  delete from public.team_members m
  using public.teams t
  where t.id = m.team_id and t.organization_id = v_organization.id and m.user_id = p_user_id
    -- A team the user owns stays theirs (standalone ownership is not organization membership).
    and not exists (
      select 1 from public.accounts a where a.id = t.account_id and a.owner_id = p_user_id
    );
  delete from public.organization_users
  where organization_id = v_organization.id and user_id = p_user_id;
end;
$$;
comment on function public.remove_organization_user(uuid, uuid) is
  'Removes a user from an organization and its teams (the users permission).';

revoke execute on function
  public.change_organization_user_role(uuid, uuid, uuid),
  public.remove_organization_user(uuid, uuid)
  from public, anon;
grant execute on function
  public.change_organization_user_role(uuid, uuid, uuid),
  public.remove_organization_user(uuid, uuid)
  to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 2. Invitation links.

create table app.invitation_tokens (
  invitation_id uuid primary key references public.invitations (id) on delete cascade,
  token_hash bytea not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table app.invitation_tokens is
  'The link an invitation mail carries, as its SHA-256 only. Re-sending replaces it.';
revoke all on app.invitation_tokens from public, anon, authenticated;

-- How long a mailed link answers. A setting so tests and operators can shorten it.
create function app.invitation_token_lifetime() returns interval
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    nullif(current_setting('app.invitation_token_lifetime', true), '')::interval,
    interval '7 days')
$$;

create function app.hash_invitation_token(p_token text) returns bytea
language sql immutable security definer
set search_path = ''
as $$
  select sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
$$;

-- A new link for a pending invitation the caller sent or manages, with what the mail says. The
-- token is returned this once; an earlier link of the same invitation stops working.
create function public.issue_invitation_token(p_invitation_id uuid)
returns table (
  token text, email text, source text, organization_name text, team_name text,
  inviter_name text, role_name text, expires_at timestamptz
)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := app.require_caller();
  v_invitation public.invitations;
  v_token text := encode(extensions.gen_random_bytes(32), 'hex');
  v_expires timestamptz := now() + app.invitation_token_lifetime();
begin
  select * into v_invitation from public.invitations i
  where i.id = p_invitation_id and i.status = 'pending'
    and (i.inviter_id = v_uid or app.can_manage_invitation(i.organization_id, i.team_id))
  for update;
  if not found then
    perform app.raise_coded('invitation_not_found');
  end if;
  insert into app.invitation_tokens (invitation_id, token_hash, expires_at)
  values (v_invitation.id, app.hash_invitation_token(v_token), v_expires)
  on conflict (invitation_id) do update
    set token_hash = excluded.token_hash, expires_at = excluded.expires_at, used_at = null,
        created_at = now();
  return query
  select v_token, v_invitation.email, v_invitation.source,
    o.name, t.name, coalesce(nullif(p.name, ''), p.email),
    coalesce(r.name, v_invitation.team_role), v_expires
  from public.profiles p
  left join public.organizations o on o.id = v_invitation.organization_id
  left join public.teams t on t.id = v_invitation.team_id
  left join public.organization_roles r on r.id = v_invitation.organization_role_id
  where p.id = v_invitation.inviter_id;
end;
$$;
comment on function public.issue_invitation_token(uuid) is
  'A fresh link token for a pending invitation the caller sent or manages (the mail''s link).';

-- What the invitation page shows before anyone signs in: the invited address (the link was
-- mailed there), where to, by whom, and whether the link still answers.
create function public.invitation_by_token(p_token text) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_found record;
  v_invitation public.invitations;
begin
  select * into v_found
  from app.invitation_tokens k
  join public.invitations i on i.id = k.invitation_id
  where k.token_hash = app.hash_invitation_token(p_token);
  if not found then
    perform app.raise_coded('invitation_not_found');
  end if;
  select * into v_invitation from public.invitations i where i.id = v_found.invitation_id;
  return jsonb_build_object(
    'id', v_invitation.id,
    'email', v_invitation.email,
    'source', v_invitation.source,
    'state', case
      when v_found.used_at is not null or v_invitation.status <> 'pending' then 'used'
      when v_found.expires_at <= now() then 'expired'
      else 'pending' end,
    'organization', (select jsonb_build_object('name', o.name, 'slug', o.slug)
      from public.organizations o where o.id = v_invitation.organization_id),
    'team', (select jsonb_build_object('name', t.name, 'slug', t.slug)
      from public.teams t where t.id = v_invitation.team_id),
    'inviter_name', (select coalesce(nullif(p.name, ''), p.email)
      from public.profiles p where p.id = v_invitation.inviter_id),
    'role', coalesce((select r.name from public.organization_roles r
      where r.id = v_invitation.organization_role_id), v_invitation.team_role),
    'account_exists', exists (
      select 1 from public.profiles p where lower(p.email) = lower(v_invitation.email))
  );
end;
$$;
comment on function public.invitation_by_token(text) is
  'The invitation a mailed link points at (for the invitation page; anyone holding the link).';

-- The checks answering by link adds to accept_invitation / reject_invitation's: a live,
-- unused token and the caller's own address. Marks the token used.
create function app.consume_invitation_token(p_token text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  v_token app.invitation_tokens;
  v_invitation public.invitations;
begin
  perform app.require_caller();
  select * into v_token from app.invitation_tokens k
  where k.token_hash = app.hash_invitation_token(p_token)
  for update;
  if not found then
    perform app.raise_coded('invitation_not_found');
  end if;
  select * into v_invitation from public.invitations i where i.id = v_token.invitation_id;
  if v_token.used_at is not null or v_invitation.status <> 'pending' then
    perform app.organization_error('invitation_used');
  end if;
  if v_token.expires_at <= now() then
    perform app.organization_error('invitation_expired');
  end if;
  if lower(v_invitation.email) <> lower(coalesce(app.caller_email(), '')) then
    perform app.organization_error('invitation_other_email');
  end if;
  update app.invitation_tokens set used_at = now() where invitation_id = v_invitation.id;
  return v_invitation.id;
end;
$$;

create function public.accept_invitation_token(p_token text) returns public.invitations
language plpgsql security definer
set search_path = ''
as $$
begin
  return public.accept_invitation(app.consume_invitation_token(p_token));
end;
$$;

create function public.reject_invitation_token(p_token text) returns public.invitations
language plpgsql security definer
set search_path = ''
as $$
begin
  return public.reject_invitation(app.consume_invitation_token(p_token));
end;
$$;

revoke execute on function
  public.issue_invitation_token(uuid), public.invitation_by_token(text),
  public.accept_invitation_token(text), public.reject_invitation_token(text)
  from public, anon;
grant execute on function
  public.issue_invitation_token(uuid), public.accept_invitation_token(text),
  public.reject_invitation_token(text)
  to authenticated;
-- The page shows the invitation to a visitor who has not signed up yet.
grant execute on function public.invitation_by_token(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- 3. The helpdesk: organization/{org}/helpdesk.

create table public.support_requests (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  author_id uuid default auth.uid() references public.profiles (id) on delete set null,
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  state text not null default 'open' check (state in ('open', 'answered', 'closed')),
  answer text check (char_length(answer) <= 5000),
  answered_by uuid references public.profiles (id) on delete set null,
  answered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.support_requests is
  'An organization''s requests to support (its helpdesk); staff answer them in the kiosk.';
create index support_requests_organization_id_idx
  on public.support_requests (organization_id, created_at desc);
create index support_requests_author_id_idx on public.support_requests (author_id);
create index support_requests_answered_by_idx on public.support_requests (answered_by);
create index support_requests_open_idx on public.support_requests (created_at) where state = 'open';

create trigger support_requests_touch_updated_at before update on public.support_requests
  for each row execute function app.touch_updated_at();
-- What was asked never changes; staff change only the answer and the state.
create trigger support_requests_protect_columns before update on public.support_requests
  for each row execute function app.protect_columns(
    'nobody', 'id', 'organization_id', 'author_id', 'subject', 'message', 'created_at');

-- An answer is signed and dated by the database, and marks the request answered unless staff
-- set another state in the same change.
create function app.stamp_support_answer() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.answer is distinct from old.answer then
    new.answered_by := (select auth.uid());
    new.answered_at := now();
    if new.state = old.state and new.state = 'open' then
      new.state := 'answered';
    end if;
  else
    new.answered_by := old.answered_by;
    new.answered_at := old.answered_at;
  end if;
  return new;
end;
$$;
create trigger support_requests_stamp_answer before update on public.support_requests
  for each row execute function app.stamp_support_answer();

create trigger support_requests_audit after insert or update or delete on public.support_requests
  for each row execute function app.audit_organization_change();

alter table public.support_requests enable row level security;

create policy "Organization members can read their organization's support requests" on public.support_requests
  for select to authenticated
  using (organization_id in (select app.member_organization_ids()));

create policy "Organization members can ask for support" on public.support_requests
  for insert to authenticated
  with check (
    author_id = (select auth.uid())
    and state = 'open' and answer is null and answered_by is null and answered_at is null
    and organization_id in (select app.member_organization_ids())
    and organization_id not in (
      select o.id from public.organizations o where o.archived_at is not null)
  );

create policy "Staff can read every support request" on public.support_requests
  for select to authenticated
  using ((select app.is_staff()));

create policy "Staff can answer support requests" on public.support_requests
  for update to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

revoke all on public.support_requests from anon;
revoke delete, truncate, references, trigger on public.support_requests from authenticated;
grant select, insert, update on public.support_requests to authenticated;

-- ---------------------------------------------------------------------------------------------
-- 4. Preview features are switched by staff only (profiles_protect_preview_features); each
-- switch is in the kiosk audit log.

alter table public.kiosk_audit_log drop constraint kiosk_audit_log_action_check;
alter table public.kiosk_audit_log add constraint kiosk_audit_log_action_check check (action in (
  'user.banned', 'user.unbanned', 'user.mfa_reset',
  'impersonation.started', 'impersonation.stopped',
  'dns.zone_created', 'dns.zone_deleted', 'dns.zones_synced',
  'access_invitation.created',
  'user.preview_features_changed'
));

create function app.log_preview_features_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.kiosk_audit_log (actor_id, action, subject_user_id, details)
  values ((select auth.uid()), 'user.preview_features_changed', new.id,
    jsonb_build_object('before', to_jsonb(old.preview_features),
      'after', to_jsonb(new.preview_features)));
  return null;
end;
$$;
create trigger profiles_log_preview_features after update of preview_features on public.profiles
  for each row when (old.preview_features is distinct from new.preview_features)
  execute function app.log_preview_features_change();

-- ---------------------------------------------------------------------------------------------
-- Nothing in `app` is executable by PUBLIC: the RPCs above call these as their owner.
revoke execute on all functions in schema app from public;
