-- Bulk jobs cut off mid-way (20261122001200_bulk.sql): the bulk-import function creates a job's
-- links in the background; when its process stops part-way (deploy, crash, out of memory), no
-- chunk and no finish ever come, and the job would stay pending or processing for ever. Each job
-- now records when it last moved (progressed_at), and app.fail_stalled_bulk_jobs ends the jobs
-- that stopped moving as failed, telling their owners as finish_bulk_job would. The local stack
-- has no scheduler (pg_cron), so the bulk-import function runs the sweep as the service role on
-- each request it handles (an upload, a job status read). Links created before the stop stay.

-- ---------------------------------------------------------------------------------------------
-- progressed_at: when the job was scheduled, then when its last chunk was recorded.

alter table public.bulk_jobs add column progressed_at timestamptz;
comment on column public.bulk_jobs.progressed_at is
  'When the job last moved: its scheduling, then each chunk of rows (app.bulk_create_links). An unfinished job that has not moved for a while was cut off (app.fail_stalled_bulk_jobs).';

-- The last write to an unfinished job is its last chunk (or its scheduling): updated_at, never
-- earlier than started_at/created_at. The backfill itself must not count as a change.
alter table public.bulk_jobs disable trigger bulk_jobs_touch_updated_at;
update public.bulk_jobs
set progressed_at = greatest(coalesce(started_at, created_at), updated_at);
alter table public.bulk_jobs enable trigger bulk_jobs_touch_updated_at;

alter table public.bulk_jobs
  alter column progressed_at set default now(),
  alter column progressed_at set not null;

-- Every chunk writes `processed` (app.bulk_create_links); a trigger stamps it there, and on
-- insert, so that no caller can date a job of theirs into the future and keep it from the sweep.
create function app.touch_bulk_job_progress() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.progressed_at := now();
  return new;
end;
$$;

create trigger bulk_jobs_touch_progress before insert or update of processed on public.bulk_jobs
  for each row execute function app.touch_bulk_job_progress();

-- The sweep reads only unfinished jobs, a handful among every job ever run: it runs on every
-- bulk-import request, so it must not scan the table.
create index bulk_jobs_unfinished_progressed_at_idx on public.bulk_jobs (progressed_at)
  where status in ('pending', 'processing');

-- ---------------------------------------------------------------------------------------------
-- The owner's notification of a finished job, one for finish_bulk_job and the sweep.

create function app.notify_bulk_job_outcome(p_job public.bulk_jobs) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_job.status is distinct from 'completed' and p_job.status is distinct from 'failed' then
    raise exception 'bulk job % is %, not finished: nothing to notify', p_job.id, p_job.status;
  end if;
  insert into public.notifications (user_id, account_id, type, title, body, data)
  values (
    p_job.created_by, p_job.account_id,
    'bulk_import.' || p_job.status,
    case when p_job.status = 'failed' then 'Batch failed' else 'Batch completed' end,
    case when p_job.status = 'failed'
      then format('The batch from %s could not be processed. %s of %s links were created.',
        coalesce(p_job.file_name, 'your file'), p_job.created, p_job.total)
      else format('%s of %s links from %s were created.', p_job.created, p_job.total,
        coalesce(p_job.file_name, 'your file'))
    end,
    jsonb_build_object('job_id', p_job.id, 'total', p_job.total, 'created', p_job.created,
      'failed', p_job.total - p_job.created, 'result_path', p_job.result_path)
  );
end;
$$;

-- As in 20261122001200_bulk.sql, with the notification above.
create or replace function app.finish_bulk_job(
  p_job_id uuid, p_failed boolean, p_errors jsonb default '{}', p_result_path text default null
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_job public.bulk_jobs;
begin
  update public.bulk_jobs j
  set status = case when p_failed then 'failed' else 'completed' end,
    started_at = coalesce(j.started_at, now()), finished_at = now(),
    errors = coalesce(p_errors, '{}'::jsonb), result_path = p_result_path
  where j.id = p_job_id and j.created_by = (select auth.uid())
    and j.status in ('pending', 'processing')
  returning * into v_job;
  if v_job.id is null then
    perform app.bulk_error('bulk_job_not_found');
  end if;
  perform app.notify_bulk_job_outcome(v_job);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- fail_stalled_bulk_jobs: every unfinished job that has not moved for p_stalled_after becomes
-- failed, and its owner is told how many of its links were created. Returns how many it ended.
-- A chunk running at the same moment holds its job's row (bulk_create_links locks it), so the
-- sweep waits for it and then sees the fresh progressed_at; a chunk or finish arriving after the
-- sweep finds the job failed and is refused (bulk_job_not_found), writing nothing.

create function app.fail_stalled_bulk_jobs(p_stalled_after interval default interval '10 minutes')
returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_job public.bulk_jobs;
  v_failed integer := 0;
begin
  if p_stalled_after is null or p_stalled_after <= interval '0' then
    raise exception using errcode = '22023',
      message = format('p_stalled_after must be a positive interval, got %s',
        coalesce(p_stalled_after::text, 'null'));
  end if;
  for v_job in
    update public.bulk_jobs j
    set status = 'failed', started_at = coalesce(j.started_at, now()), finished_at = now()
    where j.status in ('pending', 'processing') and j.progressed_at < now() - p_stalled_after
    returning j.*
  loop
    perform app.notify_bulk_job_outcome(v_job);
    v_failed := v_failed + 1;
  end loop;
  return v_failed;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Privileges: the sweep is the bulk-import function's own (service role); the notification is a
-- building block of finish_bulk_job and the sweep, which run as their owner.

grant execute on function
  app.fail_stalled_bulk_jobs(interval), app.notify_bulk_job_outcome(public.bulk_jobs)
  to service_role;

revoke execute on all functions in schema app from public;
