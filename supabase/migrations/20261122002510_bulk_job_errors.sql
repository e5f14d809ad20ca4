-- The refused rows of a bulk job, one per row and field (the portal's bulk job page lists them
-- with their line numbers). bulk_jobs.errors holds them as { "<row>": { "<field>": [messages] } };
-- this unfolds that object in row order so PostgREST can page it (Range, count=exact) instead of
-- sending every refused row of a large file at once. Security invoker: the row-level security of
-- bulk_jobs decides which jobs the caller sees, as for the table itself.

create function public.bulk_job_errors(p_job_id uuid)
returns table (line integer, field text, message text)
language sql stable security invoker
set search_path = ''
as $$
  select r.key::integer, f.key, string_agg(m.value, ' ' order by m.ordinality)
  from public.bulk_jobs j
  cross join lateral jsonb_each(j.errors) as r(key, value)
  cross join lateral jsonb_each(r.value) as f(key, value)
  cross join lateral jsonb_array_elements_text(f.value) with ordinality as m(value, ordinality)
  where j.id = p_job_id and r.key ~ '^[0-9]{1,9}$'
  group by r.key::integer, f.key
  order by r.key::integer, f.key
$$;
comment on function public.bulk_job_errors(uuid) is
  'A bulk job''s refused rows in file order: line, field and its messages, for readers of the job.';

revoke execute on function public.bulk_job_errors(uuid) from public, anon;
grant execute on function public.bulk_job_errors(uuid) to authenticated, service_role;
