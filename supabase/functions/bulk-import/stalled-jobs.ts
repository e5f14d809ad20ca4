/**
 * Jobs cut off mid-way (the process stopped by a deploy, a crash, an out-of-memory kill) never
 * get their last chunk or their finish. app.fail_stalled_bulk_jobs (migration
 * 20261122002100_bulk_stalled_jobs.sql) ends every unfinished job that has not moved for ten
 * minutes as failed and notifies its owner. Without a scheduler to run it, this function runs it
 * on each request it handles: one statement on a partial index of the unfinished jobs.
 */
import { asClaims } from '../_shared/sql.ts';

/** Ends the stalled jobs of every user (hence the service role); returns how many. */
export async function failStalledJobs(): Promise<number> {
  const [row] = await asClaims(
    { role: 'service_role' },
    (sql) => sql<{ failed: number }[]>`select app.fail_stalled_bulk_jobs() as failed`,
  );
  return row!.failed;
}

/**
 * The sweep as a request's side task: a failure is logged, not answered, since the request
 * itself (an upload, a status read) does not depend on it and the next request sweeps again.
 */
export async function sweepStalledJobs(): Promise<void> {
  try {
    const failed = await failStalledJobs();
    if (failed > 0) console.warn(`bulk-import: ${failed} stalled job(s) marked failed`);
  } catch (error) {
    console.error('bulk-import: could not sweep stalled jobs:', error);
  }
}
