-- Retargeting pixels (issue 17 item 4; app-shell 2: settings/pixel-scripts, "verified or
-- subscribed"): an account keeps pixels by provider and id, links carry some of them, and the `r`
-- function answers a visit to such a link with a small page that fires them before it redirects
-- (supabase/functions/r/pixels.ts).
--
-- Only an id is ever stored, never script: each provider's id has a strict format, checked
-- here (app.pixel_id_valid, the same patterns as shared/src/pixels.ts), and `r` builds the
-- provider's standard snippet around it.
--
-- 1. public.pixels: an account's pixels; public.alias_pixels: which links carry which.
-- 2. Row-level security: members who read an account's links read its pixels; those with the
--    account's settings permission and a verified e-mail address or a subscription add, change
--    and remove them; links take pixels from those who may manage the link (same rule on the
--    person); staff read everything.
-- 3. Cache invalidation: a link's pixels are cached with it in `r`, so every change is
--    announced on link_cache like the link's own.
-- 4. app.resolve_short_links answers each link's pixels.
-- 5. public.set_link_pixels(alias, pixel ids): a link's pixels replaced at once.

-- ---------------------------------------------------------------------------------------------
-- 1. Tables.

create function app.pixel_providers() returns text[]
language sql immutable security definer
set search_path = ''
as $$
  select array['meta', 'google_ads', 'linkedin', 'tiktok']::text[]
$$;

-- The id formats (shared/src/pixels.ts's PIXEL_PROVIDERS keeps the same patterns for the
-- forms): Meta's pixel id, Google Ads' conversion id (the AW- tag id), LinkedIn's partner id,
-- TikTok's pixel code. Anything else is refused; nothing but these characters ever reaches a page.
create function app.pixel_id_valid(p_provider text, p_pixel_id text) returns boolean
language sql immutable security definer
set search_path = ''
as $$
  select coalesce(case p_provider
    when 'meta' then p_pixel_id ~ '^[0-9]{15,16}$'
    when 'google_ads' then p_pixel_id ~ '^AW-[0-9]{6,12}$'
    when 'linkedin' then p_pixel_id ~ '^[0-9]{4,10}$'
    when 'tiktok' then p_pixel_id ~ '^[A-Z0-9]{20}$'
  end, false)
$$;

create function app.pixel_id_format(p_provider text) returns text
language sql immutable security definer
set search_path = ''
as $$
  select case p_provider
    when 'meta' then 'A Meta pixel id is 15 or 16 digits.'
    when 'google_ads' then 'A Google Ads conversion id is AW- and 6 to 12 digits, e.g. AW-123456789.'
    when 'linkedin' then 'A LinkedIn partner id is 4 to 10 digits.'
    when 'tiktok' then 'A TikTok pixel code is 20 capital letters and digits.'
  end
$$;

create table public.pixels (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  provider text not null constraint pixels_provider_known check (provider = any (app.pixel_providers())),
  pixel_id text not null constraint pixels_pixel_id_format check (app.pixel_id_valid(provider, pixel_id)),
  name text not null check (char_length(name) between 1 and 100),
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint pixels_unique_per_account unique (account_id, provider, pixel_id)
);
comment on table public.pixels is
  'An account''s retargeting pixels: a provider and the provider''s id, never script.';
create index pixels_created_by_idx on public.pixels (created_by);

create table public.alias_pixels (
  alias_id uuid not null references public.aliases (id) on delete cascade,
  pixel_id uuid not null references public.pixels (id) on delete cascade,
  -- The link's (and the pixel's) account: set by the trigger, read by the policies.
  account_id uuid not null references public.accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (alias_id, pixel_id)
);
comment on table public.alias_pixels is
  'The pixels a link fires (r serves them a page before redirecting). Same account only.';
create index alias_pixels_pixel_id_idx on public.alias_pixels (pixel_id);
create index alias_pixels_account_id_idx on public.alias_pixels (account_id);

-- An id as people paste it: spaces trimmed; Google's prefix and TikTok's code in capitals.
-- Then the format, with a message saying what the provider's id looks like.
create function app.check_pixel() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  new.pixel_id := btrim(new.pixel_id);
  if new.provider in ('google_ads', 'tiktok') then
    new.pixel_id := upper(new.pixel_id);
  end if;
  if not new.provider = any (app.pixel_providers()) then
    raise exception 'pixel_provider_invalid' using errcode = 'PT422',
      detail = 'Choose Meta, Google Ads, LinkedIn or TikTok.', hint = 'provider';
  end if;
  if not app.pixel_id_valid(new.provider, new.pixel_id) then
    raise exception 'pixel_id_invalid' using errcode = 'PT422',
      detail = app.pixel_id_format(new.provider), hint = 'pixel_id';
  end if;
  if tg_op = 'UPDATE' then
    if new.account_id is distinct from old.account_id then
      raise exception 'A pixel stays in its account.' using errcode = '42501', hint = 'account_id';
    end if;
    new.updated_at := now();
  end if;
  return new;
end;
$$;

create trigger pixels_check before insert or update on public.pixels
  for each row execute function app.check_pixel();

-- A link takes its own account's pixels, at most 10. Security definer: the caller may not see
-- the alias's account row.
create function app.check_alias_pixel() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  v_alias_account uuid;
  v_pixel_account uuid;
begin
  select a.account_id into v_alias_account from public.aliases a where a.id = new.alias_id;
  select p.account_id into v_pixel_account from public.pixels p where p.id = new.pixel_id;
  if v_alias_account is null or v_pixel_account is distinct from v_alias_account then
    raise exception 'pixel_not_found' using errcode = 'PT422',
      detail = 'A link can only use pixels of its own account.', hint = 'pixels';
  end if;
  new.account_id := v_alias_account;
  if (select count(*) from public.alias_pixels x where x.alias_id = new.alias_id) >= 10 then
    raise exception 'pixels_too_many' using errcode = 'PT422',
      detail = 'A link takes at most 10 pixels.', hint = 'pixels';
  end if;
  return new;
end;
$$;

create trigger alias_pixels_check before insert on public.alias_pixels
  for each row execute function app.check_alias_pixel();

-- ---------------------------------------------------------------------------------------------
-- 2. Row-level security.

-- The page's rule (app-shell 2: pixel-scripts needs a verified e-mail address or a subscription).
create function app.caller_verified_or_subscribed() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select app.is_verified((select auth.uid())) or app.is_subscribed((select auth.uid()))
$$;

-- The links the caller may change (links.manage, or their own with links.create), as in
-- app.manageable_alias_ids_with_feature but without a plan feature: pixels have none.
create function app.pixel_manageable_alias_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select a.id
  from public.aliases a
  where (
      a.account_id in (select app.accounts_with_permission('links.manage'))
      or (a.created_by = (select auth.uid())
          and a.account_id in (select app.accounts_with_permission('links.create')))
    )
    and app.alias_is_active(a.status)
$$;

alter table public.pixels enable row level security;
alter table public.alias_pixels enable row level security;

create policy "Members can read their accounts' pixels" on public.pixels
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));
create policy "Staff can read every pixel" on public.pixels
  for select to authenticated
  using ((select app.is_staff()));
create policy "Verified account managers can add pixels" on public.pixels
  for insert to authenticated
  with check (account_id in (select app.accounts_with_permission('settings'))
    and (select app.caller_verified_or_subscribed()));
create policy "Verified account managers can change their pixels" on public.pixels
  for update to authenticated
  using (account_id in (select app.accounts_with_permission('settings'))
    and (select app.caller_verified_or_subscribed()))
  with check (account_id in (select app.accounts_with_permission('settings'))
    and (select app.caller_verified_or_subscribed()));
create policy "Verified account managers can delete their pixels" on public.pixels
  for delete to authenticated
  using (account_id in (select app.accounts_with_permission('settings'))
    and (select app.caller_verified_or_subscribed()));

create policy "Members can read their accounts' link pixels" on public.alias_pixels
  for select to authenticated
  using (account_id in (select app.accounts_with_permission('links.read')));
create policy "Staff can read every link pixel" on public.alias_pixels
  for select to authenticated
  using ((select app.is_staff()));
create policy "Verified link managers can add pixels to links" on public.alias_pixels
  for insert to authenticated
  with check (alias_id in (select app.pixel_manageable_alias_ids())
    and (select app.caller_verified_or_subscribed()));
create policy "Verified link managers can remove pixels from links" on public.alias_pixels
  for delete to authenticated
  using (alias_id in (select app.pixel_manageable_alias_ids())
    and (select app.caller_verified_or_subscribed()));

revoke all on public.pixels, public.alias_pixels from anon, authenticated;
grant select, delete on public.pixels to authenticated;
grant insert (account_id, provider, pixel_id, name) on public.pixels to authenticated;
grant update (provider, pixel_id, name) on public.pixels to authenticated;
grant select, delete on public.alias_pixels to authenticated;
grant insert (alias_id, pixel_id) on public.alias_pixels to authenticated;
grant select, insert, update, delete on public.pixels, public.alias_pixels to service_role;

-- ---------------------------------------------------------------------------------------------
-- 3. Cache invalidation: what `r` caches with a link changes when its pixels do.

create function app.alias_pixels_announce_changes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'pixels' then
    -- An id or provider changed: every link carrying the pixel.
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from new_rows n
      join old_rows o on o.id = n.id
      join public.alias_pixels x on x.pixel_id = n.id
      join public.aliases a on a.id = x.alias_id
      where (n.provider, n.pixel_id) is distinct from (o.provider, o.pixel_id)));
  elsif tg_op = 'INSERT' then
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.aliases a where a.id in (select n.alias_id from new_rows n)));
  else
    -- Also a pixel's deletion, which removes it from its links by cascade.
    perform app.announce_link_changes(array(
      select app.link_cache_key(a.domain_id, a.alias::text)
      from public.aliases a where a.id in (select o.alias_id from old_rows o)));
  end if;
  return null;
end;
$$;

create trigger alias_pixels_announce_inserts after insert on public.alias_pixels
  referencing new table as new_rows
  for each statement execute function app.alias_pixels_announce_changes();
create trigger alias_pixels_announce_deletes after delete on public.alias_pixels
  referencing old table as old_rows
  for each statement execute function app.alias_pixels_announce_changes();
create trigger pixels_announce_updates after update on public.pixels
  referencing old table as old_rows new table as new_rows
  for each statement execute function app.alias_pixels_announce_changes();

-- ---------------------------------------------------------------------------------------------
-- 4. Resolving links with their pixels.

-- A link's pixels as `r` fires them: [{provider, id}], in a stable order; null when it has none.
create function app.link_pixels(p_alias_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_agg(jsonb_build_object('provider', p.provider, 'id', p.pixel_id)
    order by p.provider, p.pixel_id)
  from public.alias_pixels x
  join public.pixels p on p.id = x.pixel_id
  where x.alias_id = p_alias_id
$$;

-- app.resolve_short_links of migration 002900 with the pixels added (the last column).
drop function app.resolve_short_links(text[], text[]);
create function app.resolve_short_links(p_domains text[], p_aliases text[])
returns table (
  domain text,
  alias text,
  domain_usable boolean,
  redirect_status smallint,
  root_redirect_url text,
  not_found_redirect_url text,
  alias_id uuid,
  account_id uuid,
  alias_status text,
  expires_at timestamptz,
  url text,
  url_status text,
  destination_banned boolean,
  routes jsonb,
  clicks bigint,
  pixels jsonb
)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with wanted as (
      select distinct k.domain, k.alias
      from unnest(p_domains, p_aliases) as k(domain, alias)
      where k.domain is not null and k.alias is not null
    ),
    domains as materialized (
      select d.id, d.domain::text as domain,
        not (d.is_disabled or d.is_deleted or d.is_blocked)
          and d.verification_status = 'verified' as usable,
        d.redirect_status,
        case when (select v.code from app.judge_destination(d.root_redirect_url) v) is null
          then d.root_redirect_url::text end as root_redirect_url,
        case when (select v.code from app.judge_destination(d.not_found_redirect_url) v) is null
          then d.not_found_redirect_url::text end as not_found_redirect_url
      from public.domains d
      where d.domain in (select w.domain from wanted w)
    )
    select w.domain, w.alias, d.usable, d.redirect_status, d.root_redirect_url,
      d.not_found_redirect_url,
      a.id, a.account_id, a.status, a.expires_at, l.url, l.status,
      l.id is not null and c.url_md5 is distinct from md5(l.url)
        and (select v.code from app.judge_destination(l.url) v) is not null,
      -- Most links have no route: the index on alias_routes (alias_id, position) answers that.
      case when a.id is not null
        and exists (select 1 from public.alias_routes r where r.alias_id = a.id)
        then app.link_routes(a.id) end,
      case when a.id is not null and exists (
          select 1 from public.alias_routes r
          join public.alias_route_rules u on u.route_id = r.id
          where r.alias_id = a.id and u.value_id = 'clicks')
        then app.link_click_count(a.id) end,
      -- Nor pixels: the primary key of alias_pixels answers that.
      case when a.id is not null
        and exists (select 1 from public.alias_pixels x where x.alias_id = a.id)
        then app.link_pixels(a.id) end
    from wanted w
    join domains d on d.domain = w.domain
    -- citext's equality lives in schema extensions, outside this function's search path.
    left join public.aliases a on a.domain_id = d.id
      and a.alias operator(extensions.=) w.alias::extensions.citext and w.alias <> ''
    left join public.long_urls l on l.id = a.long_url_id
    left join app.destination_checks c on c.long_url_id = l.id;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- 5. A link's pixels replaced at once (the link edit dialog, the API).

-- Security invoker: the policies decide who may (unknown or foreign pixels are refused by the
-- trigger, a link the caller may not manage by the policies). All or nothing. Answers the ids
-- now attached.
create function public.set_link_pixels(p_alias_id uuid, p_pixel_ids uuid[]) returns uuid[]
language plpgsql volatile security invoker
set search_path = ''
as $$
declare
  v_wanted uuid[] := array(select distinct x from unnest(coalesce(p_pixel_ids, '{}')) x
    where x is not null order by 1);
begin
  if p_alias_id is null
    or p_alias_id not in (select app.pixel_manageable_alias_ids())
    or not (select app.caller_verified_or_subscribed()) then
    perform app.link_error('alias_not_found');
  end if;
  if cardinality(v_wanted) > 10 then
    raise exception 'pixels_too_many' using errcode = 'PT422',
      detail = 'A link takes at most 10 pixels.', hint = 'pixels';
  end if;
  delete from public.alias_pixels x
  where x.alias_id = p_alias_id and not x.pixel_id = any (v_wanted);
  insert into public.alias_pixels (alias_id, pixel_id)
  select p_alias_id, w from unnest(v_wanted) w
  where not exists (select 1 from public.alias_pixels x where x.alias_id = p_alias_id
    and x.pixel_id = w);
  return v_wanted;
end;
$$;
comment on function public.set_link_pixels(uuid, uuid[]) is
  'Replaces the pixels a link fires (its own account''s, at most 10), all or nothing.';

revoke execute on function public.set_link_pixels(uuid, uuid[]) from public, anon;
grant execute on function public.set_link_pixels(uuid, uuid[]) to authenticated, service_role;
grant execute on function app.pixel_providers(), app.pixel_id_valid(text, text),
  app.pixel_id_format(text), app.caller_verified_or_subscribed(),
  app.pixel_manageable_alias_ids() to authenticated, service_role;
grant execute on function app.link_pixels(uuid), app.resolve_short_links(text[], text[])
  to service_role;
revoke execute on all functions in schema app from public;
