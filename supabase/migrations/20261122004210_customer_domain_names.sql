-- Which names a customer may add as a branded or organization domain (issue 14, "Add Domain"):
-- a valid name (public.domain_name already says so), not banned (the name or a parent domain is
-- in public.banned_domains), not ours (the name or a parent domain is one of our common
-- domains: vanity subdomains live there and are claimed another way), and not already taken by
-- any account. Checked on insert for every role, so the portal, the API and the kiosk meet the
-- same rule; the unique index stays the last word when two accounts add a name at once.

create function app.check_customer_domain_name() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_code text;
  v_detail text;
begin
  if not app.domain_needs_dns_verification(new.kind, new.base_domain_id) then
    return new;
  end if;
  if app.is_domain_banned(new.domain) then
    v_code := 'domain_banned';
    v_detail := 'This domain is banned.';
  elsif exists (
    select 1 from public.domains d
    where d.kind = 'common' and d.domain = any (app.host_and_parents(new.domain))
  ) then
    v_code := 'domain_ours';
    v_detail := 'This domain is one of ours and cannot be added.';
  elsif exists (select 1 from public.domains d where d.domain = new.domain) then
    v_code := 'domain_taken';
    v_detail := 'This domain has already been taken.';
  else
    return new;
  end if;
  raise exception using errcode = 'PT422', message = v_code, detail = v_detail, hint = 'domain';
end;
$$;

create trigger domains_check_customer_name before insert on public.domains
  for each row execute function app.check_customer_domain_name();

revoke execute on function app.check_customer_domain_name() from public;
