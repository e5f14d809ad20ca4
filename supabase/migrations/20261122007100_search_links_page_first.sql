-- search_links: the same answers for a little less work per call (issue 17, item 8).
--
-- On bench/db.ts's data (1M links, an account of 100,000) every search case already cost its
-- backend 1 to 9 ms of CPU at load 10 on 2 cores; the 32 ms measured before for "podcast" (5 % of
-- the links) at load 24 was the wait for a core. Measured side by side (same session, calls
-- interleaved, median CPU of 20, load 10.5), before / after: "podcast" 5.95 / 5.40 ms, a word in
-- 2.5 % 9.14 / 8.88, in 0.3 % 5.86 / 5.32, "newsletter" 1.11 / 1.00, "spring-sale" 2.63 / 2.59.
-- What a middling word costs is the walk's long URL lookup, about four random buffer reads per
-- link (docs/scaling.md). The changes:
--
-- - Planning: plan_cache_mode = force_custom_plan (20261122006210) planned every statement on
--   every call, app.has_permission's included. Only the trigram query needs its word to be
--   planned right (its plan depends on how many links the word is in), so only that one is now
--   planned per call, through EXECUTE; the walk's and the page's statements keep cached plans,
--   whose shapes do not depend on the word (the account's page index in order with a long URL
--   probed per link; the page's rows by id).
-- - The walk read each leg through row_number() over every link of the leg, kept in the window
--   function's store. It is now a LIMIT on the page index joined to the long URLs, stopping at a
--   full page; where the leg ended (when the page is not full) is a second, index-only read.
-- - The trigram path read every match's row by id and sorted the rows to keep the newest page.
--   It now ranks the matches by the creation time its join already reads, then reads the page's
--   rows only.
-- - max_parallel_workers_per_gather = 0: for a word in a few thousand links the planner chose a
--   parallel bitmap scan of the long URLs: two worker processes started to save a few ms of one
--   backend, their CPU outside the backend's figure, and on a busy server they take the cores
--   other requests wait for. A page of 50 is one backend's work.

create or replace function public.search_links(
  p_account_id uuid, p_query text, p_limit integer default 50
)
returns setof public.aliases
language plpgsql stable security definer
set search_path = ''
set max_parallel_workers_per_gather = 0
as $$
declare
  -- The query matches literally: % and _ are not wildcards here.
  v_pattern text := '%' || replace(replace(replace(btrim(coalesce(p_query, '')), '\', '\\'),
    '%', '\%'), '_', '\_') || '%';
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  v_ids uuid[] := '{}';
  v_found uuid[];
  v_read integer := 0;
  v_budget integer := 200;
  -- Where the next leg starts: after this link (the first leg, after everything).
  v_after_at timestamptz := 'infinity';
  v_after_id uuid := 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  v_last_at timestamptz;
  v_last_id uuid;
begin
  if p_account_id is null
    or not (app.has_permission(p_account_id, 'links.read') or app.is_staff()) then
    return;
  end if;

  for v_leg in 1..2 loop
    -- The leg's matches: its links in index order (the aliases side from the page index alone),
    -- each one's long URL looked up and matched, the scan stopping at a full page.
    select coalesce(array_agg(f.id order by f.created_at desc, f.id desc), '{}')
    into v_found
    from (
      select w.id, w.created_at
      from (
        select a.id, a.created_at, a.alias, a.long_url_id
        from public.aliases a
        where a.account_id = p_account_id and a.status <> 'deleted'
          and (a.created_at, a.id) < (v_after_at, v_after_id)
        order by a.created_at desc, a.id desc
        limit v_budget
      ) w
      join public.long_urls u on u.id = w.long_url_id
      where w.alias::text ilike v_pattern or u.url ilike v_pattern
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

  -- The matches' ids and creation times (the newest page of them), then only that page's rows.
  -- Planned with the word on each call (EXECUTE): how many links the trigram indexes give back
  -- depends on it.
  return query execute $q$
    select a.*
    from public.aliases a
    where a.id in (
        select m.id
        from (
          select x.id, x.created_at from public.aliases x
          where x.account_id = $1 and x.alias::text ilike $2 and x.status <> 'deleted'
          union
          select x.id, x.created_at
          from public.long_urls u
          join public.aliases x on x.long_url_id = u.id
          where u.account_id = $1 and u.url ilike $2 and x.status <> 'deleted'
        ) m
        order by m.created_at desc, m.id desc
        limit $3
      )
    order by a.created_at desc, a.id desc
  $q$ using p_account_id, v_pattern, v_limit;
end;
$$;
