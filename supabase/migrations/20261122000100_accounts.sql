-- Accounts, profiles and the private helper schema.
--
-- An account is the one thing that owns data: a person's personal workspace, a team or an
-- organization (see the data-model contract). A trigger on auth.users creates every new user's
-- profile and personal account. Helpers that policies call live in schema `app`, which the API
-- does not expose; they are security definer with an empty search_path, revoked from public and
-- granted to `authenticated` only (anonymous callers never reach a policy that needs them).
--
-- Trigger functions in `app` are the one exception to "security definer": a column guard must
-- see who is really writing (current_user is `authenticated` for an API write, the function
-- owner inside an RPC), which only a security invoker function can.

create schema app;
revoke all on schema app from public;
grant usage on schema app to authenticated, service_role;

-- Postgres lets PUBLIC execute every new function, and a per-schema default cannot take that
-- back: each migration ends by revoking it from everything in `app`, then grants deliberately.

-- ---------------------------------------------------------------------------------------------
-- Vocabulary shared by several tables: checked once, as domains.

-- The spec's feature flags (app-shell 6) plus the Enterprise plan's listed extras.
create domain public.feature_list as text[]
  not null default '{}'
  check (
    array_position(value, null) is null
    and value <@ array[
      'download_logs', 'redirect_routes', 'use_branded_domains', 'purchase_branded_domains',
      'add_branded_domains', 'add_vanity_subdomains', 'use_custom_alias', 'use_tags', 'use_api',
      'domain_root_redirect', 'domain_404_redirect', 'create_tiny_url', 'update_tiny_url',
      'use_bulk', 'use_analytics', 'manage_expiration', 'archive_tiny_url', 'delete_tiny_url',
      'change_long_url', 'share_analytics', 'support_teams',
      'webhooks', 'support', 'dedicated_manager', 'emergency_phone', 'uptime_guarantee'
    ]::text[]
  );
comment on domain public.feature_list is
  'Feature names from the spec (app-shell 6 feature flags and the Enterprise plan extras).';

-- The spec's eleven organization permissions (app-shell 3), lower-case as the contract writes them.
create domain public.organization_permission_list as text[]
  not null default '{}'
  check (
    array_position(value, null) is null
    and value <@ array[
      'teams', 'subscriptions', 'invitations', 'members', 'domains', 'profile', 'users', 'roles',
      'supervisor', 'sso', 'audit'
    ]::text[]
  );

create domain public.slug as text
  check (value ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(value) <= 64);

create domain public.currency_code as text
  not null default 'USD'
  check (value ~ '^[A-Z]{3}$');

-- ---------------------------------------------------------------------------------------------
-- Generic trigger functions.

create function app.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Raises protected_column when an API caller changes one of the columns named in the trigger's
-- arguments. The first argument says who may still change them: 'staff' (the kiosk) or 'nobody'
-- (only RPCs and the service role, which run as other database roles).
create function app.protect_columns() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_column text;
  v_old jsonb := to_jsonb(old);
  v_new jsonb := to_jsonb(new);
begin
  if current_user not in ('authenticated', 'anon') then
    return new;
  end if;
  if tg_argv[0] = 'staff' and app.is_staff() then
    return new;
  end if;
  foreach v_column in array tg_argv[1:] loop
    if (v_old -> v_column) is distinct from (v_new -> v_column) then
      raise exception using
        errcode = 'PT403',
        message = 'protected_column',
        detail = format('%s cannot be changed.', v_column),
        hint = v_column;
    end if;
  end loop;
  return new;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Accounts.

create table public.accounts (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('personal', 'team', 'organization')),
  owner_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 255),
  -- The account's own feature list, granted on top of its plan's (staff set it in the kiosk).
  features public.feature_list,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.accounts is
  'The owner of all tenant data: a personal workspace, a team or an organization (1:1).';
create index accounts_owner_id_idx on public.accounts (owner_id);
-- A person has exactly one personal workspace.
create unique index accounts_one_personal_per_user_idx on public.accounts (owner_id)
  where kind = 'personal';

create trigger accounts_touch_updated_at before update on public.accounts
  for each row execute function app.touch_updated_at();
create trigger accounts_protect_identity before update on public.accounts
  for each row execute function app.protect_columns('nobody', 'id', 'kind', 'owner_id');
create trigger accounts_protect_features before update on public.accounts
  for each row execute function app.protect_columns('staff', 'features');

-- ---------------------------------------------------------------------------------------------
-- Profiles: the product's view of a user, one per auth.users row.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  -- No action (checked at statement end): deleting a user removes both rows in one cascade.
  personal_account_id uuid not null unique references public.accounts (id),
  -- Copied from auth.users (kept in sync by a trigger) so team and organization member lists
  -- can show it without exposing auth.users.
  email text not null,
  name text not null default '' check (char_length(name) <= 255),
  photo_url text check (photo_url is null or photo_url ~ '^https?://'),
  -- Bit flags: 4 no affiliate, 8 does not receive mailings, 16 hide invoices.
  status integer not null default 0 check (status >= 0 and (status & ~(4 | 8 | 16)) = 0),
  is_developer boolean not null default false,
  is_survey_enabled boolean not null default true,
  last_read_announcements_at timestamptz,
  current_team_id uuid,
  team_mode boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column public.profiles.status is 'Bit flags: 4 no affiliate, 8 no mailings, 16 hide invoices.';
comment on column public.profiles.is_developer is 'Staff: opens the kiosk and organization pages.';
create index profiles_email_idx on public.profiles (lower(email));
-- Policies look developers up by id only, through app.is_staff(); no extra index needed.

create trigger profiles_touch_updated_at before update on public.profiles
  for each row execute function app.touch_updated_at();
create trigger profiles_protect_identity before update on public.profiles
  for each row execute function app.protect_columns(
    'nobody', 'id', 'personal_account_id', 'email', 'current_team_id', 'team_mode',
    'last_read_announcements_at'
  );
create trigger profiles_protect_staff_columns before update on public.profiles
  for each row execute function app.protect_columns('staff', 'status', 'is_developer');

-- ---------------------------------------------------------------------------------------------
-- Helpers that only need profiles and auth.

create function app.is_staff() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select p.is_developer from public.profiles p where p.id = (select auth.uid())),
    false
  )
$$;

create function app.is_verified(p_user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    (select u.email_confirmed_at is not null from auth.users u where u.id = p_user_id),
    false
  )
$$;

-- The caller's current e-mail, from auth.users (a JWT's email claim can be stale).
create function app.caller_email() returns text
language sql stable security definer
set search_path = ''
as $$
  select u.email::text from auth.users u where u.id = (select auth.uid())
$$;

-- ---------------------------------------------------------------------------------------------
-- New users: a personal account and a profile, named from the sign-up metadata.

create function app.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_name text := left(btrim(coalesce(
    nullif(btrim(new.raw_user_meta_data ->> 'name'), ''),
    nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''),
    split_part(coalesce(new.email, ''), '@', 1)
  )), 255);
  v_account_id uuid;
begin
  insert into public.accounts (kind, owner_id, name)
  values ('personal', new.id, coalesce(nullif(v_name, ''), 'Personal'))
  returning id into v_account_id;
  insert into public.profiles (id, personal_account_id, email, name)
  values (new.id, v_account_id, coalesce(new.email, ''), coalesce(v_name, ''));
  return new;
end;
$$;

create function app.handle_user_email_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.profiles set email = coalesce(new.email, '') where id = new.id;
  return new;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function app.handle_new_user();
create trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function app.handle_user_email_change();

-- A personal account's name follows its owner's profile name.
create function app.sync_personal_account_name() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.accounts
  set name = coalesce(nullif(new.name, ''), split_part(new.email, '@', 1), 'Personal')
  where id = new.personal_account_id;
  return new;
end;
$$;

create trigger profiles_sync_account_name after update of name on public.profiles
  for each row when (old.name is distinct from new.name)
  execute function app.sync_personal_account_name();

-- ---------------------------------------------------------------------------------------------
-- Row-level security. Policies that need membership live in the next migration, beside the
-- tables they read.

alter table public.accounts enable row level security;
alter table public.profiles enable row level security;

create policy "Users can read their own profile" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()));

create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "Staff can read every profile" on public.profiles
  for select to authenticated
  using ((select app.is_staff()));

create policy "Staff can update every profile" on public.profiles
  for update to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Staff can read every account" on public.accounts
  for select to authenticated
  using ((select app.is_staff()));

create policy "Staff can update every account" on public.accounts
  for update to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

-- Supabase grants everything on public tables to anon and authenticated by default. Nobody
-- anonymous reads these; rows are created by triggers, never inserted or deleted over the API,
-- and TRUNCATE would bypass row-level security.
revoke all on public.accounts, public.profiles from anon;
revoke insert, delete, truncate, references, trigger on public.accounts, public.profiles
  from authenticated;

revoke execute on all functions in schema app from public;
grant execute on function app.is_staff(), app.is_verified(uuid), app.caller_email()
  to authenticated, service_role;
