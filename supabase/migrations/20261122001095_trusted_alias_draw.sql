-- create_link's p_alias_is_random skips the custom-alias plan check: a drawn alias is the
-- product's choice, not the user's. Only the links edge function draws, so only it may say so.
-- It marks its transaction with the setting shortlane.trusted_alias_draw, which no API client
-- can set (PostgREST sets only the role and request.* settings, and set_config is not exposed);
-- anyone calling the RPC directly through the API has a "random" alias treated as a chosen one.
--
-- The rules stay in one body: the original function moves to app and public.create_link becomes
-- a thin guard in front of it with the same signature and grants.

alter function public.create_link(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  rename to create_link_unguarded;
alter function public.create_link_unguarded(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  set schema app;

create function public.create_link(
  p_url text,
  p_domain text,
  p_alias text default null,
  -- Honoured only in a transaction the links edge function marked (see above).
  p_alias_is_random boolean default false,
  p_account_id uuid default null,
  p_organization_id uuid default null,
  p_tags text[] default null,
  p_description text default null,
  p_expires_at timestamptz default null
) returns jsonb
language sql volatile security definer
set search_path = ''
as $$
  select app.create_link_unguarded(
    p_url, p_domain, p_alias,
    coalesce(p_alias_is_random, false)
      and coalesce(current_setting('shortlane.trusted_alias_draw', true), '') = 'on',
    p_account_id, p_organization_id, p_tags, p_description, p_expires_at)
$$;

revoke execute on function
  public.create_link(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  from public, anon;
grant execute on function
  public.create_link(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  to authenticated, service_role;

revoke execute on all functions in schema app from public;
revoke execute on function
  app.create_link_unguarded(text, text, text, boolean, uuid, uuid, text[], text, timestamptz)
  from anon, authenticated, service_role;
