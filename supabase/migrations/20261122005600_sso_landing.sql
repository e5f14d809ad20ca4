-- Where "Sign in with SSO" by work e-mail lands: the organization that claimed the address's
-- domain (verified), so the portal can send the person into it (its landing rule decides the
-- page). What it tells a guest is no more than signInWithSSO({ domain }) already does: that the
-- domain signs in through an organization, here by its slug.
create function public.sso_organization_for_domain(p_domain text) returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.slug
  from public.organization_sso_domains d
  join public.organization_sso s on s.organization_id = d.organization_id
  join public.organizations o on o.id = d.organization_id
  where d.domain = lower(btrim(p_domain)) and d.status = 'verified' and o.archived_at is null
$$;

revoke execute on function public.sso_organization_for_domain(text) from public;
grant execute on function public.sso_organization_for_domain(text) to anon, authenticated;
