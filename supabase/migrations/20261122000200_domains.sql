-- Short-link domains: the common domains everyone may use (flags decide who), an organization's
-- domains (for all its teams or for some), and branded domains and vanity subdomains owned by a
-- personal workspace or a team.
--
-- The spec's "Domain option" maps onto columns one to one: isDisabled, isDeleted, isBlocked,
-- requireEmailVerification, subscribedOnly, allowForGuests, guestCanUseCustomAlias, for_all_teams
-- and teams (public.domain_teams). Who may create links on a domain is decided by
-- public.create_link (migration 000230); the policies here only decide who may see and manage a
-- domain row.

-- ---------------------------------------------------------------------------------------------
-- Error catalogue for the link area: maps a code to the contract's status, the spec's message
-- and the field. Unlike app.raise_coded (whose catalogue it falls back to for the codes other
-- areas share) it takes a more precise field, e.g. tags.3, and a more precise message.

create function app.link_error(p_code text, p_hint text default null, p_detail text default null)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  v_status text;
  v_detail text;
  v_hint text;
begin
  select e.status, e.detail, e.hint into v_status, v_detail, v_hint
  from (values
    ('url_required', '422', 'The URL field is required.', 'url'),
    ('url_invalid', '422', 'The url must be a valid URL.', 'url'),
    ('url_not_allowed', '422', 'This URL is not allowed.', 'url'),
    ('url_banned', '422', 'This domain is banned.', 'url'),
    ('domain_not_found', '422', 'Domain not found.', 'domain'),
    ('domain_guests_only_logged_in', '422', 'This domain is not available to guest users.', 'domain'),
    ('email_verification', '403', 'Please verify your e-mail address first.', 'domain'),
    ('not_subscribed', '402', 'billing.not_subscribed', 'domain'),
    ('custom_alias_not_allowed', '403', 'custom_alias_not_allowed', 'alias'),
    ('alias_invalid', '422', 'The alias may only contain letters, numbers, dashes and underscores.', 'alias'),
    ('alias_reserved', '422', 'This alias is reserved.', 'alias'),
    ('alias_taken', '422', 'The new alias is not unique', 'alias'),
    -- A supplied random alias collided: the caller draws another and retries.
    ('random_alias_taken', '409', 'random_alias_collision', 'alias'),
    ('alias_not_found', '404', 'Alias not found', 'alias'),
    ('tag_not_found', '404', 'Tag not found', 'tags'),
    ('tag_duplicate', '422', 'The tag has already been taken.', 'tags'),
    ('tag_too_short', '422', 'The tag must be at least 2 characters.', 'tags'),
    ('tag_too_long', '422', 'The tag must not be greater than 45 characters.', 'tags'),
    ('tags_not_allowed', '403', 'Your plan does not allow tags.', 'tags'),
    ('description_not_allowed', '422', 'A description is only available in organizations.', 'description'),
    ('description_too_long', '422', 'The description must not be greater than 1000 characters.', 'description'),
    ('expiry_too_soon', '422', 'The expiry must be at least 5 minutes from now.', 'expires_at'),
    ('expiry_too_far', '422', 'The expiry must be within 5 years.', 'expires_at'),
    ('expiry_not_allowed', '403', 'Your plan does not allow link expiry.', 'expires_at'),
    ('plan_limit_reached', '402', 'You''ve hit your plan''s limit for creating links', 'form'),
    ('not_enough_credits', '402', 'Not enough credits for this operation', 'form'),
    ('paid_only', '402', 'Editing a destination needs a paid account.', 'url'),
    ('viewer_cannot_create', '403', 'You are not a selected team member', 'team'),
    ('route_rule_invalid', '422', 'The redirect rule is invalid.', 'rules'),
    ('feature_not_allowed', '403', 'Your plan does not allow this feature.', 'form'),
    ('abilities_invalid', '422', 'The selected abilities are invalid.', 'abilities')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if not found then
    -- The codes other areas share (permission_denied, unknown_team, organization_not_found…)
    -- live in app.raise_coded's catalogue.
    perform app.raise_coded(p_code);
  end if;
  raise exception using
    errcode = 'PT' || v_status,
    -- random_alias_taken is reported as alias_taken with its own status and detail.
    message = case p_code when 'random_alias_taken' then 'alias_taken' else p_code end,
    detail = coalesce(p_detail, v_detail),
    hint = coalesce(p_hint, v_hint);
end;
$$;

grant execute on function app.link_error(text, text, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Domains.

create domain public.http_url as text
  check (char_length(value) <= 2048 and value ~* '^https?://[^\s/?#]+([/?#]\S*)?$');

create table public.domains (
  id uuid primary key default gen_random_uuid(),
  domain public.domain_name not null unique,
  -- common: the product's own; organization: an organization's; branded: a workspace's or a
  -- team's own domain, or (with base_domain_id) a vanity subdomain of a common domain.
  kind text not null check (kind in ('common', 'organization', 'branded')),
  account_id uuid references public.accounts (id) on delete cascade,
  base_domain_id uuid references public.domains (id) on delete restrict,
  is_disabled boolean not null default false,
  is_deleted boolean not null default false,
  is_blocked boolean not null default false,
  require_email_verification boolean not null default false,
  subscribed_only boolean not null default false,
  allow_for_guests boolean not null default false,
  guest_can_use_custom_alias boolean not null default false,
  -- Organization domains: every team may use it, or only those in domain_teams.
  for_all_teams boolean not null default true,
  root_redirect_url public.http_url,
  not_found_redirect_url public.http_url,
  redirect_status smallint not null default 301 check (redirect_status in (301, 302)),
  verification_status text not null default 'pending'
    check (verification_status in ('pending', 'verified', 'failed')),
  -- The TXT record value the owner publishes to prove the domain is theirs.
  verification_token text not null default encode(extensions.gen_random_bytes(16), 'hex'),
  verified_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint domains_owner_matches_kind check ((kind = 'common') = (account_id is null)),
  constraint domains_guest_flags_on_common_only
    check (kind = 'common' or not (allow_for_guests or guest_can_use_custom_alias)),
  constraint domains_team_choice_on_organization_only
    check (kind = 'organization' or for_all_teams),
  constraint domains_vanity_is_branded check (base_domain_id is null or kind = 'branded'),
  constraint domains_verified_at_when_verified
    check ((verification_status = 'verified') = (verified_at is not null))
);
comment on table public.domains is
  'Short-link domains with the spec''s Domain option flags; common ones have no account.';
comment on column public.domains.base_domain_id is
  'For a vanity subdomain: the common domain it lives under.';
create index domains_account_id_idx on public.domains (account_id);
create index domains_base_domain_id_idx on public.domains (base_domain_id);

-- The teams an organization domain applies to when it is not for all teams.
create table public.domain_teams (
  domain_id uuid not null references public.domains (id) on delete cascade,
  team_id uuid not null references public.teams (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (domain_id, team_id)
);
create index domain_teams_team_id_idx on public.domain_teams (team_id);

-- ---------------------------------------------------------------------------------------------
-- Integrity that spans rows: who may own which kind, what a vanity subdomain hangs under, and
-- that a domain's teams belong to its organization. Security definer: it reads accounts and
-- teams, which the caller may not see.

create function app.check_domain_owner() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_account_kind text;
  v_base public.domains;
begin
  if new.account_id is not null then
    select a.kind into v_account_kind from public.accounts a where a.id = new.account_id;
    if new.kind = 'organization' and v_account_kind is distinct from 'organization' then
      raise exception 'An organization domain must belong to an organization account.'
        using errcode = '23514', hint = 'account_id';
    end if;
    if new.kind = 'branded' and v_account_kind not in ('personal', 'team') then
      raise exception 'A branded domain must belong to a personal or team account.'
        using errcode = '23514', hint = 'account_id';
    end if;
  end if;
  if new.base_domain_id is not null then
    select * into v_base from public.domains d where d.id = new.base_domain_id;
    if v_base.kind is distinct from 'common' or new.domain not like '%.' || v_base.domain then
      raise exception 'A vanity subdomain must be a subdomain of a common domain.'
        using errcode = '23514', hint = 'domain';
    end if;
  end if;
  return new;
end;
$$;

create trigger domains_check_owner before insert or update of kind, account_id, base_domain_id, domain
  on public.domains for each row execute function app.check_domain_owner();

create function app.check_domain_team() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1
    from public.domains d
    join public.organizations o on o.account_id = d.account_id
    join public.teams t on t.organization_id = o.id
    where d.id = new.domain_id and d.kind = 'organization' and t.id = new.team_id
  ) then
    raise exception 'A domain can only be given to teams of the organization that owns it.'
      using errcode = '23514', hint = 'teams';
  end if;
  return new;
end;
$$;

create trigger domain_teams_check_team before insert or update on public.domain_teams
  for each row execute function app.check_domain_team();

create trigger domains_touch_updated_at before update on public.domains
  for each row execute function app.touch_updated_at();
-- Owners manage their domain's redirects, team choice and deletion; what the domain is, whom it
-- belongs to, and the moderation and verification state are staff's (or the verifier's).
create trigger domains_protect_columns before update on public.domains
  for each row execute function app.protect_columns(
    'staff', 'id', 'domain', 'kind', 'account_id', 'base_domain_id', 'is_blocked',
    'require_email_verification', 'subscribed_only', 'allow_for_guests',
    'guest_can_use_custom_alias', 'verification_status', 'verification_token', 'verified_at'
  );

-- ---------------------------------------------------------------------------------------------
-- Helpers for policies.

-- Organization domains the caller may use through a team: the team's organization owns the
-- domain and it applies to all teams or to that team.
create function app.team_domain_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select d.id
  from public.teams t
  join public.organizations o on o.id = t.organization_id
  join public.domains d on d.account_id = o.account_id and d.kind = 'organization'
  where t.account_id in (select app.accounts_with_permission('links.read'))
    and (d.for_all_teams or exists (
      select 1 from public.domain_teams dt where dt.domain_id = d.id and dt.team_id = t.id
    ))
$$;

-- Whether an account may hold a domain of this kind with these redirects (plan features).
create function app.domain_features_allow(
  p_account_id uuid, p_kind text, p_base_domain_id uuid, p_root_redirect text,
  p_not_found_redirect text
) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select
    (p_kind = 'organization'
      or (p_base_domain_id is null and app.account_has_feature(p_account_id, 'add_branded_domains'))
      or (p_base_domain_id is not null
          and app.account_has_feature(p_account_id, 'add_vanity_subdomains')))
    and (p_root_redirect is null or app.account_has_feature(p_account_id, 'domain_root_redirect'))
    and (p_not_found_redirect is null
         or app.account_has_feature(p_account_id, 'domain_404_redirect'))
$$;

grant execute on function app.team_domain_ids(),
  app.domain_features_allow(uuid, text, uuid, text, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row-level security.

alter table public.domains enable row level security;
alter table public.domain_teams enable row level security;

-- Common domains are the product's catalogue (not tenant data): the create form lists them for
-- guests too, and applies the flags itself.
create policy "Anyone can read the common domains" on public.domains
  for select to anon, authenticated
  using (kind = 'common' and not is_deleted);

create policy "Members can read their accounts' domains" on public.domains
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));

create policy "Team members can read the organization domains their team may use" on public.domains
  for select to authenticated
  using (id in (select app.team_domain_ids()));

create policy "Domain managers can add branded and organization domains" on public.domains
  for insert to authenticated
  with check (
    kind <> 'common'
    and account_id in (select app.accounts_with_permission('domains'))
    and not is_blocked
    and verification_status = 'pending'
    and app.domain_features_allow(account_id, kind, base_domain_id, root_redirect_url,
      not_found_redirect_url)
  );

-- Owners soft-delete (is_deleted) rather than delete: links keep pointing at the domain.
create policy "Domain managers can update their domains" on public.domains
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('domains')))
  with check (
    account_id in (select app.accounts_with_permission('domains'))
    and app.domain_features_allow(account_id, kind, base_domain_id, root_redirect_url,
      not_found_redirect_url)
  );

create policy "Staff can manage every domain" on public.domains
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

create policy "Readers of a domain can read its teams" on public.domain_teams
  for select to authenticated
  using (domain_id in (
    select d.id from public.domains d
    where d.account_id in (select app.accounts_with_permission('links.read'))
  ));

create policy "Domain managers can choose a domain's teams" on public.domain_teams
  for insert to authenticated
  with check (domain_id in (
    select d.id from public.domains d
    where d.account_id in (select app.accounts_with_permission('domains'))
  ));

create policy "Domain managers can remove a domain's teams" on public.domain_teams
  for delete to authenticated
  using (domain_id in (
    select d.id from public.domains d
    where d.account_id in (select app.accounts_with_permission('domains'))
  ));

create policy "Staff can manage every domain's teams" on public.domain_teams
  for all to authenticated
  using ((select app.is_staff()))
  with check ((select app.is_staff()));

-- Anonymous visitors only read common domains; only staff delete domain rows (owners soft-delete).
revoke insert, update, delete, truncate, references, trigger on public.domains from anon;
revoke all on public.domain_teams from anon;
revoke truncate, references, trigger on public.domains, public.domain_teams from authenticated;

-- Functions are executable by PUBLIC by default (per-schema default privileges cannot take
-- that away): only the grants above apply.
revoke execute on all functions in schema app from public;
