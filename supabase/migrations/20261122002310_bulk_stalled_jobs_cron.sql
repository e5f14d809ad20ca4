-- The stalled-bulk-job sweep (app.fail_stalled_bulk_jobs, 20261122002100_bulk_stalled_jobs.sql)
-- runs every minute from Supabase Cron (20261122002300_scheduled_work.sql), as postgres, the
-- function's owner; the bulk-import function no longer sweeps on each request. A job cut off
-- mid-way is thus ended between 10 and 11 minutes after its last move, whether or not anyone
-- looks at it. Scheduling by name makes this idempotent (pg_cron updates a job of that name).

select cron.schedule(
  'bulk-fail-stalled-jobs',
  '* * * * *',
  $$select app.fail_stalled_bulk_jobs()$$
);

comment on function app.fail_stalled_bulk_jobs(interval) is
  'Ends as failed the unfinished bulk jobs that have not moved for p_stalled_after and tells their owners; run every minute by the cron job bulk-fail-stalled-jobs.';
