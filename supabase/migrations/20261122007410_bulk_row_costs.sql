-- Bulk at scale (issue 17, item 7): two small costs every new link paid, same verdicts.
--
-- app.stored_destination_host (20261122006200) runs twice per bulk row (the chunk's own test, then
-- long_urls' row trigger's WHEN) and once per link anywhere else. It cut the host out with a
-- regular expression before anything else (about 2 µs, a third of the call). A URL that passes
-- the stored-form expression has a host of letters, digits, '_', '-' and '.' between its '://'
-- and the first '/', so the host is then split_part(url, '/', 3), the same text; a URL that
-- fails it gives null as before, without cutting anything.
--
-- aliases_organization_id_idx (organization_id, created_at desc) had an entry for every link,
-- though only links made in an organization have an organization_id; its readers look a link up
-- by organization (organization_id = ... or = any(...), the foreign key's set null on delete),
-- which a partial index on the non-null ones serves alike.

create or replace function app.stored_destination_host(p_url text) returns text
language plpgsql immutable strict security definer
set search_path = ''
as $$
declare
  v_host text;
begin
  -- plpgsql rather than sql: a definer sql function is never inlined, and runs its query
  -- through the executor on every call (several times the cost of these expressions).
  if char_length(p_url) > 2048
    or p_url !~ ('^https?://[a-z0-9_-]+(\.[a-z0-9_-]+)*\.[a-z_-][a-z0-9_-]*'
      || '/[!$%&(-;=@-\[\]^_a-z|~]*(\?[!$%&(-;=?@-\[\]^_a-z|~]*)?(#[!#$%&(-;=?@-\[\]^_a-z|~]*)?$') then
    return null;
  end if;
  v_host := split_part(p_url, '/', 3);
  if char_length(v_host) <= 253
    and (char_length(v_host) <= 63 or v_host !~ '[^.]{64}')
    and (position('xn--' in v_host) = 0 or v_host !~ '(^|\.)xn--')
    and ((position('/.' in p_url) = 0 and position('/%2' in p_url) = 0)
      or substring(p_url from '^https?://[^/]+(/[^?#]*)') !~* '/(\.|%2e){1,2}(/|$)') then
    return v_host;
  end if;
  return null;
end;
$$;

create index aliases_organization_id_partial_idx on public.aliases (organization_id, created_at desc)
  where organization_id is not null;
drop index public.aliases_organization_id_idx;
alter index public.aliases_organization_id_partial_idx rename to aliases_organization_id_idx;
