import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createUser,
  expectRefused,
  one,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';
import { createDomain, givePlan } from './fixtures.ts';

/**
 * bulk_job_errors (migration 20261122002510): a bulk job's refused rows for the portal's job
 * page, one per row and field in file order, for whoever may read the job (row-level security
 * of bulk_jobs) and nobody else.
 */
const pool = useDatabase();

/** A finished job of `user` with the refused rows as the bulk-import function stores them. */
async function finishedJob(
  db: pg.ClientBase,
  user: TestUser,
  errors: Record<string, Record<string, string[]>>,
): Promise<string> {
  await givePlan(db, user.personalAccountId, { features: ['create_tiny_url', 'use_bulk'] });
  const domain = await createDomain(db);
  const job = await one<{ id: string }>(
    db,
    `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, file_name,
       file_type, status, total, processed, created, errors, started_at, finished_at)
     values ($1, $2::uuid, $3, $2::text || '/' || gen_random_uuid() || '.csv', 'bulk.csv', 'csv',
       'completed', 12, 12, 8, $4::jsonb, now(), now())
     returning id`,
    [user.personalAccountId, user.id, domain.id, JSON.stringify(errors)],
  );
  return job.id;
}

const refusedRows = (db: pg.ClientBase, actor: string | null, jobId: string) =>
  asActor(db, actor, (as) =>
    all<{ line: number; field: string; message: string }>(
      as,
      'select * from public.bulk_job_errors($1)',
      [jobId],
    ),
  );

describe('bulk_job_errors', () => {
  it('lists each refused field by line, in file order (10 after 9), messages joined', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const jobId = await finishedJob(db, owner, {
        '10': { url: ['The url must be a valid URL.'] },
        '2': { tags: ['Too many tags.'], alias: ['The alias has already been taken.'] },
        '9': { url: ['The url field is required.', 'Second message.'] },
      });
      expect(await refusedRows(db, owner.id, jobId)).toEqual([
        { line: 2, field: 'alias', message: 'The alias has already been taken.' },
        { line: 2, field: 'tags', message: 'Too many tags.' },
        { line: 9, field: 'url', message: 'The url field is required. Second message.' },
        { line: 10, field: 'url', message: 'The url must be a valid URL.' },
      ]);
    }));

  it('shows nothing of a job the caller may not read, and refuses guests', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const stranger = await createUser(db);
      const jobId = await finishedJob(db, owner, {
        '2': { url: ['The url must be a valid URL.'] },
      });
      expect(await refusedRows(db, stranger.id, jobId)).toEqual([]);
      await expectRefused(refusedRows(db, null, jobId));
    }));
});
