-- search_links: the rare-word path ranks its matches before it reads their rows, and no search
-- runs in parallel workers (issue 17, item 8).
--
-- Measured on bench/db.ts's data (1M links, an account of 100,000), backend CPU per call: the
-- bench's words (5 % "podcast", 0.01 % "spring-sale", an alias fragment, 36 % "newsletter") take
-- 1 to 3.5 ms on a quiet core; the walk reads about 1,100 links for "podcast", 4 µs each (a long
-- URL looked up by id and matched). The dearest words are those between the two paths' ranges:
-- a word in 0.3 % to 2.5 % of the links ("podcast-1", "pricing-plans/").
--
-- - The trigram path (a word in fewer than 1.5 % of the links) found its matches' ids, read every
--   match's row by id, and sorted them to keep the newest page. It now takes each match's
--   creation time beside its id from the join it already makes, ranks those, and reads the rows
--   of the page only: a third less CPU for a word in 2,500 links, a tenth for 300.
-- - max_parallel_workers_per_gather = 0: for a word in a few thousand links the planner chose a
--   parallel bitmap scan of the long URLs. Two workers start (a process each) to save a few
--   milliseconds of one backend, their CPU is outside the backend's (bench/db.ts did not count
--   it), and on a busy server they take the cores other requests wait for. A page of 50 is one
--   backend's work.
-- - plan_cache_mode = force_custom_plan as in 20261122006210 (create or replace resets the
--   function's settings).

create or replace function public.search_links(
  p_account_id uuid, p_query text, p_limit integer default 50
)
returns setof public.aliases
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
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
    select coalesce(array_agg(w.id order by w.n) filter (where w.hit), '{}'),
      (array_agg(w.created_at) filter (where w.n = v_budget))[1],
      (array_agg(w.id) filter (where w.n = v_budget))[1]
    into v_found, v_last_at, v_last_id
    from (
      select s.id, s.created_at, s.hit, s.n
      from (
        select a.id, a.created_at,
          (a.alias::text ilike v_pattern or u.url ilike v_pattern) as hit,
          row_number() over (order by a.created_at desc, a.id desc) as n
        from public.aliases a
        join public.long_urls u on u.id = a.long_url_id
        where a.account_id = p_account_id and a.status <> 'deleted'
          and (a.created_at, a.id) < (v_after_at, v_after_id)
      ) s
      where s.n <= v_budget and (s.hit or s.n = v_budget)
      limit v_limit - cardinality(v_ids)
    ) w;
    v_ids := v_ids || v_found;
    v_read := v_read + v_budget;
    -- A full page, or every link read: the answer is complete.
    if cardinality(v_ids) >= v_limit or v_last_at is null then
      return query
        select a.* from public.aliases a where a.id = any (v_ids)
        order by a.created_at desc, a.id desc;
      return;
    end if;
    exit when cardinality(v_ids) < 3;
    v_budget := least(5000,
      ceil(3.0 * v_read * (v_limit - cardinality(v_ids)) / cardinality(v_ids))::integer);
    v_after_at := v_last_at;
    v_after_id := v_last_id;
  end loop;

  -- The matches' ids and creation times (the newest page of them), then only that page's rows.
  return query
    select a.*
    from public.aliases a
    where a.id in (
        select m.id
        from (
          select x.id, x.created_at from public.aliases x
          where x.account_id = p_account_id and x.alias::text ilike v_pattern
            and x.status <> 'deleted'
          union
          select x.id, x.created_at
          from public.long_urls u
          join public.aliases x on x.long_url_id = u.id
          where u.account_id = p_account_id and u.url ilike v_pattern
            and x.status <> 'deleted'
        ) m
        order by m.created_at desc, m.id desc
        limit v_limit
      )
    order by a.created_at desc, a.id desc;
end;
$$;
