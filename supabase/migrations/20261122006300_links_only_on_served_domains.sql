-- A link is created only on a domain the redirect serves. The redirect (app.resolve_short_links,
-- and r's TLS ask) serves a domain of any kind only once it is verified, but create_link and the
-- bulk check app.check_link_domain asked for verification only of branded and organization
-- domains: a common domain still pending (the table's default for a row staff add, or one staff
-- set back to pending in the kiosk to take it off the air) took links that never answered.
--
-- The rule is the redirect's, for every kind: verified, and neither disabled, deleted nor
-- blocked. It is checked here once, in front of both paths (single links through create_link —
-- the portal, the links and api functions, guests through the service role — and bulk jobs
-- through app.check_link_domain), without re-creating their bodies: each keeps its other rules
-- (and later changes to them) and is only wrapped.

create function app.domain_serves_links(p_domain public.domains) returns boolean
language sql immutable
set search_path = ''
as $$
  select not (p_domain.is_disabled or p_domain.is_deleted or p_domain.is_blocked)
    and p_domain.verification_status = 'verified'
$$;
comment on function app.domain_serves_links(public.domains) is
  'Whether the redirect serves this domain (so links may be created on it).';

-- Refuses a named domain the redirect does not serve with create_link's own error. An unknown
-- name passes: the wrapped functions answer it (domain_not_found) in their usual order.
create function app.check_domain_serves_links(p_domain text) returns void
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_domain public.domains;
begin
  select * into v_domain from public.domains d where d.domain = lower(btrim(p_domain));
  if v_domain.id is not null and not app.domain_serves_links(v_domain) then
    perform app.link_error('domain_not_found');
  end if;
end;
$$;

-- Single links: public.create_link is already the thin guard in front of the rules
-- (migration 20261122001095); it checks the domain first.
create or replace function public.create_link(
  p_url text,
  p_domain text,
  p_alias text default null,
  -- Honoured only in a transaction the links edge function marked (migration 20261122001095).
  p_alias_is_random boolean default false,
  p_account_id uuid default null,
  p_organization_id uuid default null,
  p_tags text[] default null,
  p_description text default null,
  p_expires_at timestamptz default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform app.check_domain_serves_links(p_domain);
  return app.create_link_unguarded(
    p_url, p_domain, p_alias,
    coalesce(p_alias_is_random, false)
      and coalesce(current_setting('shortlane.trusted_alias_draw', true), '') = 'on',
    p_account_id, p_organization_id, p_tags, p_description, p_expires_at);
end;
$$;

-- Bulk jobs: the workspace rules move aside under another name, and check_link_domain (called by
-- app.schedule_bulk_job) checks the domain first, then applies them.
alter function app.check_link_domain(text, uuid, uuid, uuid, uuid)
  rename to check_link_domain_for_workspace;

create function app.check_link_domain(
  p_domain text, p_account_id uuid, p_team_id uuid, p_organization_id uuid,
  p_feature_account_id uuid
) returns public.domains
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform app.check_domain_serves_links(p_domain);
  return app.check_link_domain_for_workspace(p_domain, p_account_id, p_team_id,
    p_organization_id, p_feature_account_id);
end;
$$;

-- As before: the bulk building blocks are the service role's only (create or replace kept
-- create_link's grants).
revoke execute on all functions in schema app from public;
grant execute on function app.check_link_domain(text, uuid, uuid, uuid, uuid) to service_role;
