-- Random aliases drawn by the links edge function are base62 (issue 4: at least 7 characters of
-- [0-9A-Za-z] from a CSPRNG, see supabase/functions/_shared/alias.ts), so app.check_alias accepts
-- that alphabet for p_random instead of only [a-z0-9]. Aliases stay citext: a draw whose
-- lower-case form exists is still a collision (random_alias_taken, 409) and the function draws
-- again. Everything else in the function is unchanged from 20261122000230_link_rpcs.sql.

create or replace function app.check_alias(
  p_alias text, p_domain_id uuid, p_random boolean, p_except uuid default null
) returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_alias is null or p_alias !~ '^[A-Za-z0-9_-]{1,50}$'
    or (p_random and p_alias !~ '^[A-Za-z0-9]{7,50}$') then
    perform app.link_error('alias_invalid');
  end if;
  if exists (
    select 1 from public.reserved_aliases r
    where r.alias operator(extensions.=) p_alias::extensions.citext
  ) then
    perform app.link_error(case when p_random then 'random_alias_taken' else 'alias_reserved' end);
  end if;
  if exists (
    select 1 from public.aliases a
    where a.domain_id = p_domain_id and a.alias operator(extensions.=) p_alias::extensions.citext
      and a.id is distinct from p_except
  ) then
    perform app.link_error(case when p_random then 'random_alias_taken' else 'alias_taken' end);
  end if;
  return p_alias;
end;
$$;

revoke execute on all functions in schema app from public;
