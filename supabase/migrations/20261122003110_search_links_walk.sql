-- search_links, faster for middling words (same answers).
--
-- The newest-first walk read links one by one in a PL/pgSQL loop (a fetch per row) and gave up
-- after 500: a word in 5% of the links finds about 25 there, so it fell through to the trigram
-- indexes, which fetch and sort every match (about 5,000 in an account of 100,000 links) to keep
-- the newest 50.
--
-- Now the walk is one statement (the account's links in index order, row_number()'s run
-- condition stopping the scan at the budget, a LIMIT stopping it at a full page), in two legs:
-- the newest 200 links, then, when they held at least 3 matches (a word in 1.5% of the links or
-- more), the next ones up to three times as many as that rate says the page needs (at most
-- 5,000). A rarer word goes to the trigram indexes after the first leg: its matches are few.
-- The budget's last link comes out of a leg whether it matches or not: it says the leg stopped
-- short of the account's end, and where the next leg starts.

create or replace function public.search_links(
  p_account_id uuid, p_query text, p_limit integer default 50
)
returns setof public.aliases
language plpgsql stable security definer
set search_path = ''
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

  return query
    select a.*
    from public.aliases a
    where a.id in (
        select x.id from public.aliases x
        where x.account_id = p_account_id and x.alias::text ilike v_pattern
        union
        select x.id
        from public.long_urls u
        join public.aliases x on x.long_url_id = u.id
        where u.account_id = p_account_id and u.url ilike v_pattern
      )
      and a.status <> 'deleted'
    order by a.created_at desc, a.id desc
    limit v_limit;
end;
$$;
