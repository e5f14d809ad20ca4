-- Two-factor authentication (issue 5 part 5): backup codes stored hashed, a security event log,
-- and aal2 in row-level security. TOTP factors themselves are Auth's (auth.mfa_factors); this
-- file adds what Auth does not do:
--   * backup codes, generated at aal2 and shown once, each usable once by a signed-in aal1 user
--     to remove their TOTP factors (so they can sign in and enroll again), with a lockout after
--     repeated wrong codes;
--   * app.requires_aal2(): once a user has a verified factor, the writes listed at the end need
--     a JWT raised to aal2 by that factor.

-- ---------------------------------------------------------------------------------------------
-- Coded errors of this area (data-model contract style: errcode PTxxx, message = code).

create function app.two_factor_error(p_code text) returns void
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
    ('aal2_required', '403',
      'Enter a code from your authenticator app to make this change.', 'form'),
    ('two_factor_not_enabled', '422', 'Two-factor authentication is not enabled.', 'form'),
    ('too_many_attempts', '429', 'Too many wrong codes. Try again in 15 minutes.', 'code')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if v_status is null then
    raise exception 'unknown error code "%"', p_code using errcode = '22023';
  end if;
  raise exception using errcode = 'PT' || v_status, message = p_code, detail = v_detail,
    hint = v_hint;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Assurance level.

create function app.has_verified_factor(p_user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.mfa_factors f where f.user_id = p_user_id and f.status = 'verified'
  )
$$;

-- True when the caller meets the aal2 requirement: their JWT was raised to aal2, or they have no
-- verified factor (a user without 2FA is never asked for a second factor). Service-role and
-- anonymous calls carry no user, so have no factor. Used in restrictive policies.
create function app.requires_aal2() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal'), 'aal1') = 'aal2'
    or not app.has_verified_factor((select auth.uid()))
$$;

-- The same requirement for writes made through security definer RPCs, which bypass RLS.
create function app.enforce_aal2() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not app.requires_aal2() then
    perform app.two_factor_error('aal2_required');
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Security events: what happened to a user's sign-in protection. The user reads their own,
-- staff read all; written only by the functions below.

create table public.user_security_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  action text not null check (action in (
    'two_factor.backup_codes_generated', 'two_factor.backup_code_used',
    'two_factor.backup_code_failed', 'two_factor.locked_out', 'two_factor.disabled'
  )),
  details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
  created_at timestamptz not null default now()
);
comment on table public.user_security_events is
  'Two-factor events of a user: backup codes generated, used, refused; 2FA turned off.';
create index user_security_events_user_id_idx
  on public.user_security_events (user_id, created_at desc);

alter table public.user_security_events enable row level security;

create policy "Users can read their own security events" on public.user_security_events
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Staff can read every security event" on public.user_security_events
  for select to authenticated
  using ((select app.is_staff()));

revoke all on public.user_security_events from anon;
revoke insert, update, delete, truncate, references, trigger on public.user_security_events
  from authenticated;

create function app.log_security_event(p_user_id uuid, p_action text, p_details jsonb)
returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into public.user_security_events (user_id, action, details)
  values (p_user_id, p_action, coalesce(p_details, '{}'))
$$;

-- ---------------------------------------------------------------------------------------------
-- Backup codes: sha256 of a per-code random salt and the normalised code. Codes carry 50 random
-- bits (10 characters of a 32-letter alphabet), so a fast hash is enough; the lockout below
-- bounds guessing. Nobody reads this table over the API, not even its owner.

create table public.two_factor_backup_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  salt bytea not null check (octet_length(salt) = 16),
  code_hash bytea not null check (octet_length(code_hash) = 32),
  used_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.two_factor_backup_codes is
  'Hashed single-use two-factor backup codes; only the security definer RPCs touch it.';
create index two_factor_backup_codes_user_id_idx
  on public.two_factor_backup_codes (user_id) where used_at is null;

-- Wrong backup codes, for the lockout. Cleared by a successful use.
create table public.two_factor_backup_code_failures (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index two_factor_backup_code_failures_user_id_idx
  on public.two_factor_backup_code_failures (user_id, created_at desc);

alter table public.two_factor_backup_codes enable row level security;
alter table public.two_factor_backup_code_failures enable row level security;
revoke all on public.two_factor_backup_codes, public.two_factor_backup_code_failures
  from anon, authenticated;

-- How many codes a generation yields, how many wrong codes lock, and for how long.
create function app.backup_code_settings()
returns table (code_count integer, max_failures integer, lockout interval)
language sql immutable security definer
set search_path = ''
as $$
  select 10, 5, interval '15 minutes'
$$;

-- Upper-case, without the separating dash and spaces people type or paste.
create function app.normalize_backup_code(p_code text) returns text
language sql immutable security definer
set search_path = ''
as $$
  select upper(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g'))
$$;

create function app.backup_code_hash(p_salt bytea, p_code text) returns bytea
language sql immutable security definer
set search_path = ''
as $$
  select extensions.digest(p_salt || convert_to(app.normalize_backup_code(p_code), 'UTF8'),
    'sha256')
$$;

-- One random code, shown as XXXXX-XXXXX. 256 is a multiple of 32, so `byte % 32` is unbiased.
create function app.random_backup_code() returns text
language sql volatile security definer
set search_path = ''
as $$
  with alphabet as (select 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'::text as letters),
  picked as (
    select string_agg(substr(a.letters, get_byte(r.bytes, i) % 32 + 1, 1), '' order by i) as code
    from alphabet a,
      (select extensions.gen_random_bytes(10) as bytes) r,
      generate_series(0, 9) as i
  )
  select left(code, 5) || '-' || right(code, 5) from picked
$$;

-- New codes for the caller, replacing every earlier one. Returned this once; only hashes stay.
create function public.generate_two_factor_backup_codes() returns text[]
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_codes text[];
begin
  if v_uid is null then
    perform app.two_factor_error('permission_denied');
  end if;
  if not app.has_verified_factor(v_uid) then
    perform app.two_factor_error('two_factor_not_enabled');
  end if;
  if not app.requires_aal2() then
    perform app.two_factor_error('aal2_required');
  end if;
  select array_agg(app.random_backup_code())
  into v_codes
  from generate_series(1, (select s.code_count from app.backup_code_settings() s));

  delete from public.two_factor_backup_codes c where c.user_id = v_uid;
  insert into public.two_factor_backup_codes (user_id, salt, code_hash)
  select v_uid, s.salt, app.backup_code_hash(s.salt, s.code)
  from (select code, extensions.gen_random_bytes(16) as salt from unnest(v_codes) as code) s;

  perform app.log_security_event(v_uid, 'two_factor.backup_codes_generated',
    jsonb_build_object('count', cardinality(v_codes)));
  return v_codes;
end;
$$;

-- The caller's unused codes (app-shell 3: active_two_factor_backup_codes_count).
create function public.two_factor_backup_codes_remaining() returns integer
language sql stable security definer
set search_path = ''
as $$
  select count(*)::integer
  from public.two_factor_backup_codes c
  where c.user_id = (select auth.uid()) and c.used_at is null
$$;

-- Signs a user in who lost their authenticator: the caller (signed in with their password,
-- aal1) gives one unused code; it is spent, their TOTP factors are removed (the trigger below
-- drops their other codes) and they must enroll again. A wrong code is recorded and answered
-- with {consumed: false} rather than an error, because an error would roll the record back;
-- after max_failures wrong codes within the lockout period every try is refused.
create function public.consume_two_factor_backup_code(p_code text) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_settings record;
  v_failures integer;
  v_code_id uuid;
begin
  if v_uid is null then
    perform app.two_factor_error('permission_denied');
  end if;
  select * into v_settings from app.backup_code_settings();
  -- One caller at a time, so parallel guesses cannot slip past the count.
  perform pg_advisory_xact_lock(hashtextextended('two_factor_backup_code:' || v_uid::text, 0));

  select count(*) into v_failures
  from public.two_factor_backup_code_failures f
  where f.user_id = v_uid and f.created_at > now() - v_settings.lockout;
  if v_failures >= v_settings.max_failures then
    perform app.two_factor_error('too_many_attempts');
  end if;
  if not app.has_verified_factor(v_uid) then
    perform app.two_factor_error('two_factor_not_enabled');
  end if;

  select c.id into v_code_id
  from public.two_factor_backup_codes c
  where c.user_id = v_uid and c.used_at is null
    and c.code_hash = app.backup_code_hash(c.salt, p_code)
  limit 1;

  if v_code_id is null then
    insert into public.two_factor_backup_code_failures (user_id) values (v_uid);
    v_failures := v_failures + 1;
    perform app.log_security_event(v_uid,
      case when v_failures >= v_settings.max_failures
        then 'two_factor.locked_out' else 'two_factor.backup_code_failed' end,
      jsonb_build_object('failures', v_failures));
    return jsonb_build_object('consumed', false,
      'attempts_left', greatest(v_settings.max_failures - v_failures, 0));
  end if;

  update public.two_factor_backup_codes set used_at = now() where id = v_code_id;
  delete from public.two_factor_backup_code_failures f where f.user_id = v_uid;
  perform app.log_security_event(v_uid, 'two_factor.backup_code_used',
    jsonb_build_object('backup_code_id', v_code_id));
  delete from auth.mfa_factors f where f.user_id = v_uid and f.factor_type = 'totp';
  return jsonb_build_object('consumed', true, 'attempts_left', v_settings.max_failures);
end;
$$;

-- When a user's last verified factor goes (unenrolled, reset by staff, or removed by a backup
-- code), their unused backup codes go with it: codes never outlive the 2FA they back up.
create function app.forget_backup_codes_without_factor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- A user being deleted takes their codes and events along (cascade); nothing to log then.
  if not exists (select 1 from auth.users u where u.id = old.user_id) then
    return null;
  end if;
  if old.status = 'verified' and not app.has_verified_factor(old.user_id) then
    delete from public.two_factor_backup_codes c
    where c.user_id = old.user_id and c.used_at is null;
    perform app.log_security_event(old.user_id, 'two_factor.disabled',
      jsonb_build_object('factor_id', old.id));
  end if;
  return null;
end;
$$;

create trigger mfa_factors_forget_backup_codes after delete on auth.mfa_factors
  for each row execute function app.forget_backup_codes_without_factor();

revoke execute on function public.generate_two_factor_backup_codes(),
  public.two_factor_backup_codes_remaining(), public.consume_two_factor_backup_code(text)
  from public, anon;
grant execute on function public.generate_two_factor_backup_codes(),
  public.two_factor_backup_codes_remaining(), public.consume_two_factor_backup_code(text)
  to authenticated;
grant execute on function app.requires_aal2(), app.has_verified_factor(uuid)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- aal2 in RLS. Once a user has a verified factor, an aal1 JWT (password only) cannot change:
-- their profile, API tokens, organization settings, roles and users, teams and their members,
-- or invitations. Restrictive policies add the requirement to every permissive one; reads stay
-- as they were. API tokens are only minted by public.create_api_token (security definer, past
-- RLS), so a trigger carries the requirement there.

create policy "Profile changes need aal2 once 2FA is on" on public.profiles
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));

create policy "API token changes need aal2 once 2FA is on" on public.api_tokens
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "API token revocation needs aal2 once 2FA is on" on public.api_tokens
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));
create trigger api_tokens_enforce_aal2 before insert on public.api_tokens
  for each row execute function app.enforce_aal2();

create policy "Organization changes need aal2 once 2FA is on" on public.organizations
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "Organization deletion needs aal2 once 2FA is on" on public.organizations
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

create policy "Role creation needs aal2 once 2FA is on" on public.organization_roles
  as restrictive for insert to authenticated
  with check ((select app.requires_aal2()));
create policy "Role changes need aal2 once 2FA is on" on public.organization_roles
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "Role deletion needs aal2 once 2FA is on" on public.organization_roles
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

create policy "Organization user changes need aal2 once 2FA is on" on public.organization_users
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "Organization user removal needs aal2 once 2FA is on" on public.organization_users
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

create policy "Team changes need aal2 once 2FA is on" on public.teams
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "Team deletion needs aal2 once 2FA is on" on public.teams
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

create policy "Adding team members needs aal2 once 2FA is on" on public.team_members
  as restrictive for insert to authenticated
  with check ((select app.requires_aal2()));
create policy "Team member changes need aal2 once 2FA is on" on public.team_members
  as restrictive for update to authenticated
  using ((select app.requires_aal2())) with check ((select app.requires_aal2()));
create policy "Team member removal needs aal2 once 2FA is on" on public.team_members
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

create policy "Inviting needs aal2 once 2FA is on" on public.invitations
  as restrictive for insert to authenticated
  with check ((select app.requires_aal2()));
create policy "Withdrawing invitations needs aal2 once 2FA is on" on public.invitations
  as restrictive for delete to authenticated
  using ((select app.requires_aal2()));

revoke execute on all functions in schema app from public;
