-- Abuse limits the edge functions enforce per client address (first: guest link creation in the
-- links function). Function instances come and go and run side by side, so the count lives here,
-- once: a fixed window per bucket, counted and judged in one statement, so concurrent requests
-- cannot both take the last place.

create table app.rate_limit_counters (
  -- '<what>:<client address>', e.g. 'guest_link:203.0.113.7'.
  bucket text primary key,
  window_started_at timestamptz not null,
  hits integer not null check (hits > 0)
);
comment on table app.rate_limit_counters is
  'Requests per bucket (a kind of request and a client address) in the current window; app.hit_rate_limit counts and judges them.';

create index rate_limit_counters_window_started_at_idx
  on app.rate_limit_counters (window_started_at);

alter table app.rate_limit_counters enable row level security;
revoke all on app.rate_limit_counters from public, anon, authenticated;

-- Counts one request in `p_bucket` and answers 0 when it is within `p_limit` per `p_window`, or
-- else the whole seconds until the window ends (a Retry-After). Refused requests count too: an
-- address that keeps trying stays refused until its window is over. Windows of the same kind
-- that are over are deleted on the way, so the table holds about one row per recent address.
create function app.hit_rate_limit(p_bucket text, p_limit integer, p_window interval)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_hits integer;
  v_started timestamptz;
begin
  if p_bucket is null or p_bucket !~ '^[a-z_]+:.+$' then
    raise exception 'rate limit bucket must be <kind>:<key>, got %', p_bucket;
  end if;
  if p_limit is null or p_limit < 0 or p_window is null or p_window <= interval '0' then
    raise exception 'rate limit needs a limit of at least 0 and a positive window';
  end if;

  insert into app.rate_limit_counters as c (bucket, window_started_at, hits)
  values (p_bucket, now(), 1)
  on conflict (bucket) do update
    set window_started_at = case
          when c.window_started_at + p_window <= now() then now() else c.window_started_at end,
        hits = case when c.window_started_at + p_window <= now() then 1 else c.hits + 1 end
  returning hits, window_started_at into v_hits, v_started;

  delete from app.rate_limit_counters
  where window_started_at <= now() - p_window
    and bucket like split_part(p_bucket, ':', 1) || ':%';

  if v_hits <= p_limit then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from v_started + p_window - now())))::integer;
end;
$$;

revoke execute on function app.hit_rate_limit(text, integer, interval) from public;
grant execute on function app.hit_rate_limit(text, integer, interval) to service_role;
