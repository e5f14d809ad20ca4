-- Branded domains and vanity subdomains as customers manage them (issue 14, items 1 and 2):
-- deleting a domain frees its name, the plan's domain limits hold on every insert a customer
-- makes, and vanity subdomains (name.<one of our base domains>) are claimed through one RPC that
-- makes them live at once.
--
-- What the plan options count (the spec names them without defining them; this is our reading):
--   max_vanity_subdomains   vanity subdomains (base_domain_id set)
--   max_domains             the account's own names that are not under another name it holds
--   max_subdomains          the account's own names under another name it holds
--                           (links.example.com beside example.com)
--   max_domains_subdomains  both of those together
-- Only live rows count (a deleted domain gives its place back). A missing option is no limit of
-- its own (app.account_limit answers null), so a plan with only max_domains_subdomains caps the
-- sum alone. Each account counts for itself: a team inside an organization reads its own plan or
-- the organization's (app.account_limit), and counts the team's domains.

-- ---------------------------------------------------------------------------------------------
-- Columns.

alter table public.domains
  -- A common domain under which customers may claim vanity subdomains (the spec's is_base).
  add column is_base boolean not null default false,
  -- What a deleted domain was called: its row keeps the links, its name goes back to the pool.
  add column deleted_domain text,
  add constraint domains_base_is_common check (not is_base or kind = 'common');
comment on column public.domains.is_base is
  'A common domain that offers vanity subdomains (name.<this domain>).';
comment on column public.domains.deleted_domain is
  'The name a deleted domain had; its domain column holds a placeholder so the name is free.';

-- The base domains' flag is staff's, like the rest of the moderation columns.
drop trigger domains_protect_columns on public.domains;
create trigger domains_protect_columns before update on public.domains
  for each row execute function app.protect_columns(
    'staff', 'id', 'domain', 'kind', 'account_id', 'base_domain_id', 'is_blocked',
    'require_email_verification', 'subscribed_only', 'allow_for_guests',
    'guest_can_use_custom_alias', 'verification_status', 'verification_token', 'verified_at',
    'verification_deadline', 'verification_checked_at', 'verification_next_check_at',
    'verification_problem', 'is_base', 'deleted_domain'
  );

-- ---------------------------------------------------------------------------------------------
-- Errors of this area, raised the way the link area raises them (PT<status>, the code as the
-- message, the text the portal shows as detail, the field as hint).

create function app.domain_error(p_code text) returns void
language plpgsql immutable security definer
set search_path = ''
as $$
declare
  v_status text;
  v_detail text;
  v_hint text;
begin
  select e.status, e.detail, e.hint into v_status, v_detail, v_hint
  from (values
    ('domain_limit_reached', '402', 'You''ve reached your plan''s limit of domains.', 'domain'),
    ('subdomain_limit_reached', '402', 'You''ve reached your plan''s limit of subdomains.',
      'domain'),
    ('domains_subdomains_limit_reached', '402',
      'You''ve reached your plan''s limit of domains and subdomains.', 'domain'),
    ('vanity_subdomain_limit_reached', '402',
      'You''ve reached your plan''s limit of vanity subdomains.', 'subdomain'),
    ('subdomain_required', '422', 'Subdomain required.', 'subdomain'),
    ('subdomain_invalid', '422',
      'The subdomain may only contain letters, numbers and dashes, 3 to 63 characters, and may not start or end with a dash.',
      'subdomain'),
    ('subdomain_reserved', '422', 'This subdomain is reserved.', 'subdomain'),
    ('subdomain_taken', '422', 'This subdomain has already been taken.', 'subdomain'),
    ('base_domain_invalid', '422', 'Vanity subdomains are not offered on this domain.',
      'base_domain'),
    ('vanity_through_rpc', '403', 'Vanity subdomains are claimed with create_vanity_subdomain.',
      'domain'),
    ('domain_deleted_for_good', '422', 'A deleted domain cannot be restored; add it again.',
      'is_deleted')
  ) as e(code, status, detail, hint)
  where e.code = p_code;
  if not found then
    raise exception 'unknown domain error "%"', p_code using errcode = '22023';
  end if;
  raise exception using errcode = 'PT' || v_status, message = p_code, detail = v_detail,
    hint = v_hint;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Deleting frees the name. Owners soft-delete (the row keeps its links, which then stop
-- answering: the redirector finds no domain of that name); the name moves to deleted_domain and
-- the unique domain column gets a placeholder no one can ask for, so the name can be added again,
-- by anyone, as a new row with a new token. Runs after domains_protect_columns (names sort), which
-- has already kept the caller from renaming it themselves.

create function app.release_deleted_domain_name() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_base text;
begin
  if old.is_deleted and not new.is_deleted then
    perform app.domain_error('domain_deleted_for_good');
  end if;
  if new.is_deleted and not old.is_deleted and new.kind <> 'common' then
    new.deleted_domain := old.domain;
    -- A vanity subdomain's placeholder stays under its base, as the kind's shape requires.
    select d.domain into v_base from public.domains d where d.id = new.base_domain_id;
    new.domain := 'deleted-' || replace(new.id::text, '-', '') || '.'
      || coalesce(v_base, 'invalid');
    new.verification_next_check_at := null;
  end if;
  return new;
end;
$$;

create trigger domains_release_name_on_delete before update of is_deleted on public.domains
  for each row execute function app.release_deleted_domain_name();

-- ---------------------------------------------------------------------------------------------
-- Plan limits.

-- The account's live domains by what the limits count.
create function app.account_domain_counts(p_account_id uuid)
returns table (domains bigint, subdomains bigint, vanity bigint)
language sql stable security definer
set search_path = ''
as $$
  with own as (
    select d.domain::text as name, d.base_domain_id
    from public.domains d
    where d.account_id = p_account_id and not d.is_deleted and d.kind <> 'common'
  ), classified as (
    select o.base_domain_id is not null as vanity,
      o.base_domain_id is null and exists (
        select 1 from own p
        where p.base_domain_id is null and p.name <> o.name
          and p.name = any (app.host_and_parents(o.name))
      ) as under_another
    from own o
  )
  select count(*) filter (where not vanity and not under_another),
    count(*) filter (where not vanity and under_another),
    count(*) filter (where vanity)
  from classified
$$;

-- Refuses a customer's new domain beyond the plan. Inserts without a signed-in user (migrations,
-- the service role's purchase and kiosk flows) and staff are not limited.
create function app.check_domain_limits() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_counts record;
  v_is_subdomain boolean;
  v_limit bigint;
begin
  -- Callers without the domains permission are refused by the insert policy anyway; they learn
  -- nothing about the account's counts here.
  if new.kind = 'common' or new.is_deleted or (select auth.uid()) is null
    or (select app.is_staff()) or not app.has_permission(new.account_id, 'domains') then
    return new;
  end if;
  -- One insert at a time per account, so two at once cannot both take the last place.
  perform pg_advisory_xact_lock(hashtextextended('domain-limits:' || new.account_id::text, 0));
  select * into v_counts from app.account_domain_counts(new.account_id);
  if new.base_domain_id is not null then
    v_limit := app.account_limit(new.account_id, 'max_vanity_subdomains');
    if v_limit is not null and v_counts.vanity >= v_limit then
      perform app.domain_error('vanity_subdomain_limit_reached');
    end if;
    return new;
  end if;
  v_is_subdomain := exists (
    select 1 from public.domains d
    where d.account_id = new.account_id and not d.is_deleted and d.base_domain_id is null
      and d.kind <> 'common' and d.domain::text = any (app.host_and_parents(new.domain))
  );
  v_limit := app.account_limit(new.account_id,
    case when v_is_subdomain then 'max_subdomains' else 'max_domains' end);
  if v_limit is not null
    and (case when v_is_subdomain then v_counts.subdomains else v_counts.domains end) >= v_limit
  then
    perform app.domain_error(
      case when v_is_subdomain then 'subdomain_limit_reached' else 'domain_limit_reached' end);
  end if;
  v_limit := app.account_limit(new.account_id, 'max_domains_subdomains');
  if v_limit is not null and v_counts.domains + v_counts.subdomains >= v_limit then
    perform app.domain_error('domains_subdomains_limit_reached');
  end if;
  return new;
end;
$$;

-- BEFORE triggers run by name: after the name checks (a taken name says so first), before
-- domains_start_verification.
create trigger domains_check_limits before insert on public.domains
  for each row execute function app.check_domain_limits();

-- Holders of the domains permission read the domains they manage, also where they hold nothing
-- else (an organization role with `domains` reaches the teams' domains with no links.read): the
-- pages that add and edit a domain read it back.
create policy "Domain managers can read the domains they manage" on public.domains
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('domains')));

-- ---------------------------------------------------------------------------------------------
-- Vanity subdomains.

-- Labels no one may claim under our domains: the product's own hosts and the usual service names.
create table app.reserved_subdomains (
  label text primary key,
  reason text not null
);
comment on table app.reserved_subdomains is
  'Labels no customer may claim as a vanity subdomain of our base domains.';
insert into app.reserved_subdomains (label, reason)
select l, 'service' from unnest(array[
  'www', 'api', 'app', 'admin', 'kiosk', 'mail', 'smtp', 'imap', 'pop', 'ftp', 'ns', 'ns1',
  'ns2', 'dns', 'mx', 'cdn', 'static', 'assets', 'status', 'help', 'support', 'blog', 'docs',
  'dev', 'staging', 'test', 'auth', 'login', 'billing', 'pay', 'shop', 'store', 'redirect',
  'r', 'go', 'link', 'links', 'short', 'tiny', 'shortlane', 'root', 'system', 'abuse',
  'postmaster', 'hostmaster', 'webmaster', 'security', 'deleted', 'localhost', 'wpad',
  'autodiscover', 'autoconfig', 'mta-sts'
]) as l;
revoke all on app.reserved_subdomains from public, anon, authenticated;

-- Customers claim vanity subdomains here, never by inserting the row themselves: the RPC decides
-- the name is fine and makes the domain verified at once (it lives under our own domain, so there
-- is nothing to prove).
-- Security invoker: current_user is then the API role for an insert through PostgREST, and the
-- RPC's owner for the RPC's own insert.
create function app.refuse_direct_vanity_insert() returns trigger
language plpgsql security invoker
set search_path = ''
as $$
begin
  if new.base_domain_id is not null and current_user in ('authenticated', 'anon')
    and not (select app.is_staff()) then
    perform app.domain_error('vanity_through_rpc');
  end if;
  return new;
end;
$$;

create trigger domains_check_direct_vanity before insert on public.domains
  for each row execute function app.refuse_direct_vanity_insert();

-- The base domains vanity subdomains may be claimed under (the portal's choice).
create function public.vanity_base_domains()
returns table (id uuid, domain text)
language sql stable security definer
set search_path = ''
as $$
  select d.id, d.domain::text from public.domains d
  where d.kind = 'common' and d.is_base
    and not (d.is_disabled or d.is_deleted or d.is_blocked)
  order by d.domain
$$;

create function public.create_vanity_subdomain(
  p_account_id uuid, p_subdomain text, p_base_domain_id uuid default null
) returns public.domains
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_label text := lower(btrim(coalesce(p_subdomain, '')));
  v_base public.domains;
  v_name text;
  v_row public.domains;
begin
  if (select auth.uid()) is null or p_account_id is null
    or not app.has_permission(p_account_id, 'domains') then
    perform app.raise_coded('permission_denied');
  end if;
  if not app.account_has_feature(p_account_id, 'add_vanity_subdomains') then
    perform app.link_error('feature_not_allowed');
  end if;
  if v_label = '' then
    perform app.domain_error('subdomain_required');
  end if;
  if v_label !~ '^[a-z0-9]([a-z0-9-]{1,61}[a-z0-9])$' then
    perform app.domain_error('subdomain_invalid');
  end if;
  select * into v_base from public.domains d
  where d.kind = 'common' and d.is_base and not (d.is_disabled or d.is_deleted or d.is_blocked)
    and (p_base_domain_id is null or d.id = p_base_domain_id)
  order by d.domain
  limit 1;
  if v_base.id is null then
    perform app.domain_error('base_domain_invalid');
  end if;
  if exists (select 1 from app.reserved_subdomains r where r.label = v_label)
    or exists (select 1 from public.reserved_aliases r where lower(r.alias::text) = v_label) then
    perform app.domain_error('subdomain_reserved');
  end if;
  v_name := v_label || '.' || v_base.domain;
  if app.is_domain_banned(v_name) then
    perform app.domain_error('subdomain_reserved');
  end if;
  if exists (select 1 from public.domains d where d.domain = v_name) then
    perform app.domain_error('subdomain_taken');
  end if;
  begin
    insert into public.domains (domain, kind, account_id, base_domain_id, verification_status,
      verified_at)
    values (v_name, 'branded', p_account_id, v_base.id, 'verified', now())
    returning * into v_row;
  exception when unique_violation then
    -- Someone claimed it between the check and the insert.
    perform app.domain_error('subdomain_taken');
  end;
  return v_row;
end;
$$;
comment on function public.create_vanity_subdomain(uuid, text, uuid) is
  'Claims <subdomain>.<base domain> for the account: live at once, within max_vanity_subdomains.';

revoke execute on function app.domain_error(text), app.release_deleted_domain_name(),
  app.account_domain_counts(uuid), app.check_domain_limits(),
  app.refuse_direct_vanity_insert(), public.vanity_base_domains(),
  public.create_vanity_subdomain(uuid, text, uuid) from public;
grant execute on function app.account_domain_counts(uuid), app.domain_error(text)
  to authenticated, service_role;
grant execute on function public.vanity_base_domains() to anon, authenticated;
grant execute on function public.create_vanity_subdomain(uuid, text, uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------
-- What the portal's domain pages read: each domain the caller manages with its links count and
-- the plan's room left, in one call per account.

create function public.account_domain_usage(p_account_id uuid)
returns table (
  domains bigint, subdomains bigint, vanity bigint,
  max_domains bigint, max_subdomains bigint, max_domains_subdomains bigint,
  max_vanity_subdomains bigint, discounted_domain_count bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not app.has_permission(p_account_id, 'domains') then
    perform app.raise_coded('permission_denied');
  end if;
  return query
  select c.domains, c.subdomains, c.vanity,
    app.account_limit(p_account_id, 'max_domains'),
    app.account_limit(p_account_id, 'max_subdomains'),
    app.account_limit(p_account_id, 'max_domains_subdomains'),
    app.account_limit(p_account_id, 'max_vanity_subdomains'),
    app.account_limit(p_account_id, 'discounted_domain_count')
  from app.account_domain_counts(p_account_id) c;
end;
$$;

-- Links per domain, for the domains the caller reads or manages.
create function public.domain_link_counts(p_domain_ids uuid[])
returns table (domain_id uuid, links bigint)
language sql stable security definer
set search_path = ''
as $$
  select d.id, (select count(*) from public.aliases a where a.domain_id = d.id)
  from public.domains d
  where d.id = any (p_domain_ids) and d.kind <> 'common'
    and (d.account_id in (select app.accounts_with_permission('links.read'))
      or d.account_id in (select app.accounts_with_permission('domains')))
$$;

-- The accounts whose domains the caller manages (the rule the policies apply: the domains
-- permission), with the plan features the pages ask about; personal first, then teams, then
-- organizations. The portal's account picker and its gates read this.
create function public.domain_accounts()
returns table (
  account_id uuid, kind text, name text, organization_slug text,
  add_branded_domains boolean, add_vanity_subdomains boolean,
  domain_root_redirect boolean, domain_404_redirect boolean
)
language sql stable security definer
set search_path = ''
as $$
  select a.id, a.kind, a.name, o.slug::text,
    app.account_has_feature(a.id, 'add_branded_domains'),
    app.account_has_feature(a.id, 'add_vanity_subdomains'),
    app.account_has_feature(a.id, 'domain_root_redirect'),
    app.account_has_feature(a.id, 'domain_404_redirect')
  from public.accounts a
  left join public.organizations o on o.account_id = a.id
  where a.id in (select app.accounts_with_permission('domains'))
  order by case a.kind when 'personal' then 0 when 'team' then 1 else 2 end, a.name, a.id
$$;

revoke execute on function public.domain_accounts() from public;
grant execute on function public.domain_accounts() to authenticated;

revoke execute on function public.account_domain_usage(uuid),
  public.domain_link_counts(uuid[]) from public;
grant execute on function public.account_domain_usage(uuid),
  public.domain_link_counts(uuid[]) to authenticated;

revoke execute on all functions in schema app from public;
