-- Single sign-on for organizations (issue 18). An organization on a plan with the `sso` feature
-- registers its SAML identity provider with Auth (the org-sso edge function does that with the
-- service role, through Auth's /admin/sso/providers), claims e-mail domains, proves each by a
-- DNS TXT record (or staff vouch for it in the kiosk), picks the role new members get, and may
-- require single sign-on of everyone at those domains.
--
--   * organization_sso: one row per organization with its Auth provider and its options;
--   * organization_sso_domains: claimed domains, pending until proved; only verified ones reach
--     Auth, so nobody can send another company's addresses to their own IdP;
--   * public.hook_password_verification_attempt: Auth's password verification hook
--     ([auth.hook.password_verification_attempt]) refusing passwords at "require SSO" domains;
--   * a trigger on auth.identities: a first SSO sign-in joins the organization with its default
--     role, and every SSO sign-in lands in the organization's audit trail.

-- ---------------------------------------------------------------------------------------------
-- The `sso` plan feature (the Enterprise plan's). The domain's check lists the known features;
-- it is rebuilt with `sso` added, whatever else other migrations added before.
do $$
declare
  v_name text;
  v_definition text;
begin
  select c.conname, pg_get_constraintdef(c.oid) into v_name, v_definition
  from pg_constraint c
  where c.contypid = 'public.feature_list'::regtype and c.contype = 'c';
  if v_definition not like '%''sso''::text%' then
    execute format('alter domain public.feature_list drop constraint %I', v_name);
    execute format('alter domain public.feature_list add constraint %I %s', v_name,
      replace(v_definition, '''webhooks''::text', '''webhooks''::text, ''sso''::text'));
  end if;
end $$;

-- ---------------------------------------------------------------------------------------------
-- Tables.

create table public.organization_sso (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- auth.sso_providers.id of the organization's identity provider (no foreign key: Auth owns
  -- its schema and the provider is written through its API).
  provider_id uuid not null unique,
  entity_id text not null check (char_length(entity_id) between 1 and 1000),
  metadata_url text check (metadata_url is null or metadata_url ~ '^https?://'),
  default_role_id uuid,
  require_sso boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (organization_id, default_role_id)
    references public.organization_roles (organization_id, id) on delete set null (default_role_id)
);
comment on table public.organization_sso is
  'An organization''s SAML identity provider as registered with Auth, and its sign-in options.';

create table public.organization_sso_domains (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  domain text not null check (
    char_length(domain) <= 253
    and domain ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$'),
  verification_token text not null
    default 'shortlane-sso=' || encode(extensions.gen_random_bytes(16), 'hex'),
  status text not null default 'pending' check (status in ('pending', 'verified')),
  verified_by text check (verified_by in ('dns', 'staff')),
  verified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'verified') = (verified_at is not null and verified_by is not null))
);
-- One organization per e-mail domain, claimed or proved.
create unique index organization_sso_domains_domain_key on public.organization_sso_domains (domain);
create index organization_sso_domains_organization_id_idx
  on public.organization_sso_domains (organization_id);

create trigger organization_sso_touch before update on public.organization_sso
  for each row execute function app.touch_updated_at();
create trigger organization_sso_domains_touch before update on public.organization_sso_domains
  for each row execute function app.touch_updated_at();

-- Setting changes are in the organization's audit trail (sso.created, sso_domain.updated…).
create trigger organization_sso_audit after insert or update or delete on public.organization_sso
  for each row execute function app.audit_organization_change();
create trigger organization_sso_domains_audit
  after insert or update or delete on public.organization_sso_domains
  for each row execute function app.audit_organization_change();

-- ---------------------------------------------------------------------------------------------
-- Who may do what.

-- The organization's account, when the caller holds `sso` there and its plan has the feature;
-- otherwise a PostgREST error the portal maps (403 forbidden, 402 plan_feature).
create function app.assert_sso_manager(p_organization_id uuid) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_account_id uuid;
begin
  select o.account_id into v_account_id from public.organizations o where o.id = p_organization_id;
  if v_account_id is null or not app.has_permission(v_account_id, 'sso') then
    raise exception using errcode = 'PT403', message = 'sso_forbidden',
      detail = 'You may not manage single sign-on of this organization.', hint = 'organization';
  end if;
  if not app.account_has_feature(v_account_id, 'sso') then
    raise exception using errcode = 'PT402', message = 'sso_plan_required',
      detail = 'Single sign-on is part of the Enterprise plan.', hint = 'sso';
  end if;
  return v_account_id;
end;
$$;

alter table public.organization_sso enable row level security;
alter table public.organization_sso_domains enable row level security;

-- The team `sso` page shows its organization's setting: whoever sees the organization reads it.
create policy "People of an organization can read its single sign-on setting"
  on public.organization_sso for select to authenticated
  using (organization_id in (select app.visible_organization_ids()));
create policy "Staff can read every single sign-on setting"
  on public.organization_sso for select to authenticated
  using ((select app.is_staff()));
create policy "People of an organization can read its single sign-on domains"
  on public.organization_sso_domains for select to authenticated
  using (organization_id in (select app.visible_organization_ids()));
create policy "Staff can read every single sign-on domain"
  on public.organization_sso_domains for select to authenticated
  using ((select app.is_staff()));
-- Writes go through the RPCs below and the org-sso function (service role).
revoke all on public.organization_sso, public.organization_sso_domains from anon, authenticated;
grant select on public.organization_sso, public.organization_sso_domains to authenticated;
grant all on public.organization_sso, public.organization_sso_domains to service_role;

-- ---------------------------------------------------------------------------------------------
-- RPCs.

-- The org-sso function asks this as the caller before it touches Auth.
create function public.assert_sso_manager(p_organization_id uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.assert_sso_manager(p_organization_id);
end;
$$;

-- Claims an e-mail domain for the organization; it stays pending until its TXT record
-- `_shortlane-sso.<domain>` holds verification_token (or staff verify it).
create function public.claim_sso_domain(p_organization_id uuid, p_domain text)
returns public.organization_sso_domains
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_domain text := lower(btrim(coalesce(p_domain, ''), ' .'));
  v_row public.organization_sso_domains;
begin
  perform app.assert_sso_manager(p_organization_id);
  if v_domain !~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$' or char_length(v_domain) > 253 then
    raise exception using errcode = 'PT422', message = 'sso_domain_invalid',
      detail = 'Enter a domain such as example.com.', hint = 'domain';
  end if;
  if exists (select 1 from public.organization_sso_domains d where d.domain = v_domain) then
    raise exception using errcode = 'PT422', message = 'sso_domain_taken',
      detail = 'This domain is already claimed.', hint = 'domain';
  end if;
  insert into public.organization_sso_domains (organization_id, domain)
  values (p_organization_id, v_domain)
  returning * into v_row;
  return v_row;
end;
$$;

create function public.remove_sso_domain(p_domain_id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_organization_id uuid;
begin
  select d.organization_id into v_organization_id
  from public.organization_sso_domains d where d.id = p_domain_id;
  if v_organization_id is null then
    raise exception using errcode = 'PT404', message = 'sso_domain_not_found',
      detail = 'Domain not found.', hint = 'domain';
  end if;
  perform app.assert_sso_manager(v_organization_id);
  delete from public.organization_sso_domains where id = p_domain_id;
end;
$$;

-- The role new members get and whether passwords are refused at the organization's domains.
create function public.set_sso_options(
  p_organization_id uuid, p_default_role_id uuid, p_require_sso boolean
) returns public.organization_sso
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_row public.organization_sso;
begin
  perform app.assert_sso_manager(p_organization_id);
  if p_default_role_id is not null and not exists (
    select 1 from public.organization_roles r
    where r.id = p_default_role_id and r.organization_id = p_organization_id
  ) then
    raise exception using errcode = 'PT422', message = 'role_invalid',
      detail = 'The selected role is invalid.', hint = 'role';
  end if;
  update public.organization_sso
  set default_role_id = p_default_role_id, require_sso = coalesce(p_require_sso, false)
  where organization_id = p_organization_id
  returning * into v_row;
  if v_row.organization_id is null then
    raise exception using errcode = 'PT422', message = 'sso_not_configured',
      detail = 'Add your identity provider first.', hint = 'sso';
  end if;
  return v_row;
end;
$$;

-- Staff vouch for a domain (kiosk): it counts as proved.
create function public.kiosk_verify_sso_domain(p_domain_id uuid)
returns public.organization_sso_domains
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_row public.organization_sso_domains;
begin
  if not app.is_staff() then
    raise exception using errcode = 'PT403', message = 'sso_forbidden',
      detail = 'You may not manage single sign-on of this organization.', hint = 'organization';
  end if;
  update public.organization_sso_domains
  set status = 'verified', verified_by = 'staff', verified_at = now()
  where id = p_domain_id and status = 'pending'
  returning * into v_row;
  if v_row.id is null then
    raise exception using errcode = 'PT404', message = 'sso_domain_not_found',
      detail = 'Domain not found.', hint = 'domain';
  end if;
  return v_row;
end;
$$;

-- The login page's "Sign in with SSO" by organization slug: the organization's Auth provider,
-- when it has one (as GoTrue tells anyone which domains have SSO, nothing more is revealed).
create function public.sso_provider_for_organization(p_slug text) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select s.provider_id
  from public.organizations o
  join public.organization_sso s on s.organization_id = o.id
  where o.slug = lower(btrim(p_slug)) and o.archived_at is null
$$;

revoke execute on function public.assert_sso_manager(uuid), public.claim_sso_domain(uuid, text),
  public.remove_sso_domain(uuid), public.set_sso_options(uuid, uuid, boolean),
  public.kiosk_verify_sso_domain(uuid), public.sso_provider_for_organization(text),
  app.assert_sso_manager(uuid) from public, anon;
grant execute on function public.assert_sso_manager(uuid), public.claim_sso_domain(uuid, text),
  public.remove_sso_domain(uuid), public.set_sso_options(uuid, uuid, boolean),
  public.kiosk_verify_sso_domain(uuid) to authenticated;
grant execute on function public.sso_provider_for_organization(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Require SSO: Auth's password verification attempt hook. A password user whose address is at
-- a verified domain of an organization requiring SSO is refused, right password or not.

create function app.sso_required_for(p_email text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.organization_sso_domains d
    join public.organization_sso s on s.organization_id = d.organization_id
    where d.domain = lower(split_part(p_email, '@', 2))
      and d.status = 'verified' and s.require_sso
  )
$$;

create function public.hook_password_verification_attempt(event jsonb) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select u.email into v_email from auth.users u where u.id = (event ->> 'user_id')::uuid;
  if v_email is not null and app.sso_required_for(v_email) then
    return jsonb_build_object(
      'decision', 'reject',
      'message', 'Your organization requires single sign-on. Use "Sign in with SSO".');
  end if;
  return jsonb_build_object('decision', 'continue');
end;
$$;
revoke execute on function public.hook_password_verification_attempt(jsonb)
  from public, anon, authenticated;
grant execute on function public.hook_password_verification_attempt(jsonb) to supabase_auth_admin;

-- ---------------------------------------------------------------------------------------------
-- SSO sign-ins: Auth writes an `sso:<provider id>` identity at the first one and touches its
-- last_sign_in_at at every later one.

create function app.handle_sso_sign_in() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_sso public.organization_sso;
  v_role_id uuid;
begin
  if new.provider not like 'sso:%' then
    return null;
  end if;
  select * into v_sso from public.organization_sso s
  where s.provider_id::text = substr(new.provider, 5);
  if v_sso.organization_id is null then
    return null;
  end if;
  if tg_op = 'INSERT' then
    -- The default role, else the organization's least privileged one (fewest permissions).
    v_role_id := coalesce(v_sso.default_role_id, (
      select r.id from public.organization_roles r
      where r.organization_id = v_sso.organization_id
      order by cardinality(r.permissions), r.created_at limit 1));
    if v_role_id is not null and exists (select 1 from public.profiles p where p.id = new.user_id) then
      insert into public.organization_users (organization_id, user_id, role_id)
      values (v_sso.organization_id, new.user_id, v_role_id)
      on conflict do nothing;
    end if;
  end if;
  insert into public.audit_events (organization_id, actor_id, action, subject_table, subject_id,
    old_values, new_values, ip, target)
  values (v_sso.organization_id, new.user_id, 'sso.signed_in', 'identities', new.user_id::text,
    null, jsonb_build_object('provider', new.provider, 'first', tg_op = 'INSERT'),
    app.request_ip(), left(new.identity_data ->> 'email', 600));
  return null;
end;
$$;

create trigger on_sso_identity_created after insert on auth.identities
  for each row when (new.provider like 'sso:%')
  execute function app.handle_sso_sign_in();
create trigger on_sso_identity_signed_in after update of last_sign_in_at on auth.identities
  for each row when (new.provider like 'sso:%'
    and new.last_sign_in_at is distinct from old.last_sign_in_at)
  execute function app.handle_sso_sign_in();

revoke execute on function app.sso_required_for(text), app.handle_sso_sign_in()
  from public, anon, authenticated;
