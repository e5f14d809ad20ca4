-- search_links serves the portal's link lists (issue 17, item 8): the dashboard's and the
-- organization pages' search went through PostgREST (ILIKE on aliases with an embedded long URL
-- filter, OFFSET paging), which is not what bench/db.ts measured, and on a large account reads
-- every match to sort it. The lists now call this function, which gains what they ask:
--
-- - p_field: the `type:query` forms (link-creation 7): 'any' (alias or destination, as before),
--   'alias', 'url', 'description', or 'tag' (the tag's exact, normalized name).
-- - p_state: the list's tab. 'active' (a live status, not expired), 'expired' (a live status
--   past its expiry), 'archived'; null keeps the old answer (every link but the deleted ones).
-- - p_after_created_at, p_after_id: keyset paging, the page after this link (newest first).
-- - p_organization_id: only the links made in that organization (org.me lists the user's
--   personal links made there).
--
-- One walk for every form: each field is one arm of the match, switched by its flag, so a field
-- the call does not ask for costs nothing (the executor stops at `false and …`: those arms'
-- subplans show as never executed). A tag is found by its id in alias_tags' primary key, link by link, on the walk; a
-- rare one through alias_tags_tag_id_idx. The account's page index also carries expires_at and
-- organization_id now, so the state and the organization are judged from the index alone.
-- The rare-word query is one text: the legs a call does not ask for are folded away when it is
-- planned with its values (it is planned per call, as before).

create index aliases_account_page_list_idx on public.aliases
  (account_id, created_at desc, id desc)
  include (status, long_url_id, alias, expires_at, organization_id);
drop index public.aliases_account_page_idx;
alter index public.aliases_account_page_list_idx rename to aliases_account_page_idx;

drop function public.search_links(uuid, text, integer);

create function public.search_links(
  p_account_id uuid,
  p_query text,
  p_limit integer default 50,
  p_field text default 'any',
  p_state text default null,
  p_after_created_at timestamptz default null,
  p_after_id uuid default null,
  p_organization_id uuid default null
)
returns setof public.aliases
language plpgsql stable security definer
set search_path = ''
set max_parallel_workers_per_gather = 0
as $$
declare
  v_field text := coalesce(p_field, 'any');
  -- The query matches literally: % and _ are not wildcards here.
  v_pattern text := '%' || replace(replace(replace(btrim(coalesce(p_query, '')), '\', '\\'),
    '%', '\%'), '_', '\_') || '%';
  v_in_alias boolean := v_field in ('any', 'alias');
  v_in_url boolean := v_field in ('any', 'url');
  v_in_description boolean := v_field = 'description';
  v_tag_id uuid;
  v_now timestamptz := now();
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  v_ids uuid[] := '{}';
  v_found uuid[];
  v_read integer := 0;
  v_budget integer := 200;
  -- The page starts after this link: the caller's cursor, or after everything.
  v_start_at constant timestamptz := coalesce(p_after_created_at, 'infinity');
  v_start_id constant uuid := coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  -- Where the next leg starts (the first leg, at the page's start).
  v_after_at timestamptz := v_start_at;
  v_after_id uuid := v_start_id;
  v_last_at timestamptz;
  v_last_id uuid;
  -- The rare-word query's filter on each leg's link x: what the walk's WHERE says below.
  v_rare_filter constant text := $f$
    x.status <> 'deleted' and (x.created_at, x.id) < ($8, $9)
    and ($7::uuid is null or x.organization_id = $7)
    and case $6::text
      when 'archived' then x.status = 'archived'
      when 'active' then x.status in ('active', 'no_affiliate', 'can_affiliate')
        and (x.expires_at is null or x.expires_at > $10)
      when 'expired' then x.status in ('active', 'no_affiliate', 'can_affiliate')
        and x.expires_at <= $10
      else true end $f$;
begin
  if v_field not in ('any', 'alias', 'url', 'description', 'tag') then
    raise exception using errcode = '22023',
      message = 'search_links: p_field must be any, alias, url, description or tag';
  end if;
  if p_state is not null and p_state not in ('active', 'expired', 'archived') then
    raise exception using errcode = '22023',
      message = 'search_links: p_state must be active, expired, archived or null';
  end if;
  if (p_after_created_at is null) <> (p_after_id is null) then
    raise exception using errcode = '22023',
      message = 'search_links: p_after_created_at and p_after_id go together';
  end if;
  if p_account_id is null
    or not (app.has_permission(p_account_id, 'links.read') or app.is_staff()) then
    return;
  end if;
  if v_field = 'tag' then
    select t.id into v_tag_id from public.tags t
    where t.account_id = p_account_id and t.name = lower(btrim(coalesce(p_query, '')));
    if v_tag_id is null then
      return;
    end if;
  end if;

  for v_leg in 1..2 loop
    -- The leg's matches: its links in index order (the aliases side from the page index alone),
    -- each one matched on the fields asked for, the scan stopping at a full page.
    select coalesce(array_agg(f.id order by f.created_at desc, f.id desc), '{}')
    into v_found
    from (
      select w.id, w.created_at
      from (
        select a.id, a.created_at, a.alias, a.long_url_id, a.status, a.expires_at,
          a.organization_id
        from public.aliases a
        where a.account_id = p_account_id and a.status <> 'deleted'
          and (a.created_at, a.id) < (v_after_at, v_after_id)
        order by a.created_at desc, a.id desc
        limit v_budget
      ) w
      where (p_organization_id is null or w.organization_id = p_organization_id)
        and case p_state
          when 'archived' then w.status = 'archived'
          when 'active' then w.status in ('active', 'no_affiliate', 'can_affiliate')
            and (w.expires_at is null or w.expires_at > v_now)
          when 'expired' then w.status in ('active', 'no_affiliate', 'can_affiliate')
            and w.expires_at <= v_now
          else true end
        and ((v_in_alias and w.alias::text ilike v_pattern)
          or (v_in_url and exists (
            select 1 from public.long_urls u where u.id = w.long_url_id and u.url ilike v_pattern))
          or (v_in_description and exists (
            select 1 from public.aliases d where d.id = w.id and d.description ilike v_pattern))
          or (v_tag_id is not null and exists (
            select 1 from public.alias_tags t where t.alias_id = w.id and t.tag_id = v_tag_id)))
      order by w.created_at desc, w.id desc
      limit v_limit - cardinality(v_ids)
    ) f;
    v_ids := v_ids || v_found;
    v_read := v_read + v_budget;
    if cardinality(v_ids) >= v_limit then
      exit;
    end if;
    -- The leg's last link, where the next one starts (none: every link is read, the answer is
    -- complete).
    select a.created_at, a.id into v_last_at, v_last_id
    from public.aliases a
    where a.account_id = p_account_id and a.status <> 'deleted'
      and (a.created_at, a.id) < (v_after_at, v_after_id)
    order by a.created_at desc, a.id desc
    offset v_budget - 1 limit 1;
    if v_last_at is null then
      exit;
    end if;
    exit when cardinality(v_ids) < 3;
    v_budget := least(5000,
      ceil(3.0 * v_read * (v_limit - cardinality(v_ids)) / cardinality(v_ids))::integer);
    v_after_at := v_last_at;
    v_after_id := v_last_id;
  end loop;

  -- A full page, or every link read: the answer is complete.
  if cardinality(v_ids) >= v_limit or v_last_at is null then
    return query
      select a.* from public.aliases a where a.id = any (v_ids)
      order by a.created_at desc, a.id desc;
    return;
  end if;

  -- The matches' ids and creation times (the newest page of them after the caller's cursor),
  -- then only that page's rows. Planned with the values on each call (EXECUTE): how many links
  -- the trigram indexes give back depends on the word, and the legs not asked for fold away.
  -- The description has no trigram index: its leg reads the account's links. The URL and tag
  -- legs name no account on x: the foreign keys keep a link in its long URL's and its tag's
  -- account, and naming it made the planner hash-join the account's whole page index.
  return query execute format($q$
    select a.*
    from public.aliases a
    where a.id in (
        select m.id
        from (
          select x.id, x.created_at from public.aliases x
          where $3 and x.account_id = $1 and x.alias::text ilike $2 and %1$s
          union
          select x.id, x.created_at
          from public.long_urls u
          join public.aliases x on x.long_url_id = u.id
          where $4 and u.account_id = $1 and u.url ilike $2 and %1$s
          union
          select x.id, x.created_at from public.aliases x
          where $5 and x.account_id = $1 and x.description ilike $2 and %1$s
          union
          select x.id, x.created_at
          from public.alias_tags t
          join public.aliases x on x.id = t.alias_id
          where t.tag_id = $11 and %1$s
        ) m
        order by m.created_at desc, m.id desc
        limit $12
      )
    order by a.created_at desc, a.id desc
  $q$, v_rare_filter)
  using p_account_id, v_pattern, v_in_alias, v_in_url, v_in_description, p_state,
    p_organization_id, v_start_at, v_start_id, v_now, v_tag_id, v_limit;
end;
$$;

comment on function public.search_links(uuid, text, integer, text, text, timestamptz, uuid, uuid) is
  'An account''s links matching a search, newest first, a page at a time (the portal''s lists).';

revoke execute on function
  public.search_links(uuid, text, integer, text, text, timestamptz, uuid, uuid)
  from public, anon;
grant execute on function
  public.search_links(uuid, text, integer, text, text, timestamptz, uuid, uuid)
  to authenticated, service_role;
