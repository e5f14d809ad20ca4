import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../local/src/ports.ts';
import {
  all,
  asActor,
  createUser,
  expectDatabaseError,
  one,
  uniqueSuffix,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';
import { asServiceRole, createDomain, expectRefusedAs, givePlan } from './fixtures.ts';

/**
 * Bulk jobs cut off mid-way (migration 20261122002100_bulk_stalled_jobs.sql): each job's
 * progress is stamped, app.fail_stalled_bulk_jobs ends the unfinished jobs that stopped moving
 * and tells their owners, only the service role runs it, and a swept job takes no late chunk
 * or finish. The cron job bulk-fail-stalled-jobs (migration 20261122002310) runs it every minute.
 */
const pool = useDatabase();

const BULK_FEATURES = ['create_tiny_url', 'use_bulk'];

interface Scene {
  owner: TestUser;
  other: TestUser;
  domainId: string;
  domain: string;
}

async function createScene(db: pg.ClientBase): Promise<Scene> {
  const owner = await createUser(db);
  const other = await createUser(db);
  for (const user of [owner, other]) {
    await givePlan(db, user.personalAccountId, { features: BULK_FEATURES });
  }
  const domain = await createDomain(db);
  return { owner, other, domainId: domain.id, domain: domain.domain };
}

interface JobOptions {
  status?: 'pending' | 'processing' | 'completed' | 'failed';
  total?: number;
  processed?: number;
  created?: number;
  /** How long ago the job last moved. */
  idleMinutes: number;
}

/** A job as the function leaves it mid-way (written as postgres), last moved idleMinutes ago. */
async function insertJob(
  db: pg.ClientBase,
  scene: Scene,
  user: TestUser,
  options: JobOptions,
): Promise<string> {
  const status = options.status ?? 'processing';
  const job = await one<{ id: string }>(
    db,
    `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, file_name,
       file_type, status, total, processed, created, started_at, finished_at)
     values ($1, $2::uuid, $3, $2::text || '/' || gen_random_uuid() || '.csv', 'spring.csv',
       'csv', $4::text, $5, $6, $7, case when $4::text <> 'pending' then now() end,
       case when $4::text in ('completed', 'failed') then now() end)
     returning id`,
    [
      user.personalAccountId,
      user.id,
      scene.domainId,
      status,
      options.total ?? 3,
      options.processed ?? 0,
      options.created ?? 0,
    ],
  );
  await setIdle(db, job.id, options.idleMinutes);
  return job.id;
}

/** Sets a job's last move back in time, as a process that stopped long ago leaves it. */
async function setIdle(db: pg.ClientBase, jobId: string, minutes: number): Promise<void> {
  await db.query(
    `update public.bulk_jobs set progressed_at = now() - make_interval(mins => $2) where id = $1`,
    [jobId, minutes],
  );
}

const jobRow = (db: pg.ClientBase, jobId: string) =>
  one<{ job: Record<string, unknown> }>(
    db,
    `select to_jsonb(j) as job from public.bulk_jobs j where j.id = $1`,
    [jobId],
  ).then((row) => row.job);

const sweep = (db: pg.ClientBase, stalledAfter?: string) =>
  asServiceRole(db, (as) =>
    one<{ failed: number }>(
      as,
      stalledAfter === undefined
        ? `select app.fail_stalled_bulk_jobs() as failed`
        : `select app.fail_stalled_bulk_jobs($1::interval) as failed`,
      stalledAfter === undefined ? [] : [stalledAfter],
    ),
  ).then((row) => row.failed);

/** The unfinished jobs of the whole database the default sweep would end now. */
const stalledCount = (db: pg.ClientBase) =>
  one<{ count: number }>(
    db,
    `select count(*)::int as count from public.bulk_jobs
     where status in ('pending', 'processing') and progressed_at < now() - interval '10 minutes'`,
  ).then((row) => row.count);

const failureNotices = (db: pg.ClientBase, userId: string) =>
  all<{ title: string; body: string; data: Record<string, unknown> }>(
    db,
    `select title, body, data from public.notifications
     where user_id = $1 and type = 'bulk_import.failed' order by created_at, id`,
    [userId],
  );

/** One prepared row as the function sends it to bulk_create_links (url checked, first draw). */
function chunkRow(row: number, tags: string[] = []) {
  const host = `dest-${uniqueSuffix()}.example.org`;
  return {
    row,
    url: `https://${host}/page-${row}`,
    domains: [host, 'example.org', 'org'],
    alias: null,
    random_alias: `r${uniqueSuffix().slice(0, 6)}`,
    tags,
  };
}

async function scheduleJob(db: pg.ClientBase, user: TestUser, domain: string, total: number) {
  const jobId = randomUUID();
  await asActor(db, user.id, (as) =>
    as.query(`select app.schedule_bulk_job($1, $2, 'spring.csv', 'csv', true, $3)`, [
      jobId,
      domain,
      total,
    ]),
  );
  return jobId;
}

const createLinks = (db: pg.ClientBase, user: TestUser, jobId: string, rows: unknown[]) =>
  asActor(db, user.id, (as) =>
    one<{ answer: { created: [number, string][] } }>(
      as,
      `select app.bulk_create_links($1, $2::jsonb, 0) as answer`,
      [jobId, JSON.stringify(rows)],
    ),
  ).then((row) => row.answer);

const progressedNow = (db: pg.ClientBase, jobId: string) =>
  one<{ now: boolean }>(
    db,
    `select progressed_at = now() as now from public.bulk_jobs where id = $1`,
    [jobId],
  ).then((row) => row.now);

describe('bulk job progress', () => {
  it('is stamped when a job is scheduled and by every chunk', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const jobId = await scheduleJob(db, scene.owner, scene.domain, 2);
      expect(await progressedNow(db, jobId)).toBe(true);

      await setIdle(db, jobId, 60);
      expect(await progressedNow(db, jobId)).toBe(false);
      const answer = await createLinks(db, scene.owner, jobId, [chunkRow(2)]);
      expect(answer.created).toHaveLength(1);
      expect(await progressedNow(db, jobId)).toBe(true);
      expect(await jobRow(db, jobId)).toMatchObject({
        status: 'processing',
        processed: 1,
        created: 1,
      });
    }));
});

describe('app.fail_stalled_bulk_jobs', () => {
  it('fails only the unfinished jobs that stopped moving, and tells each owner once', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const stalled = await insertJob(db, scene, scene.owner, {
        idleMinutes: 11,
        total: 3,
        processed: 1,
        created: 1,
      });
      const stalledPending = await insertJob(db, scene, scene.other, {
        status: 'pending',
        idleMinutes: 20,
        total: 5,
      });
      const fresh = await insertJob(db, scene, scene.owner, { idleMinutes: 2, processed: 1 });
      const completed = await insertJob(db, scene, scene.owner, {
        status: 'completed',
        idleMinutes: 60 * 24,
        processed: 3,
        created: 3,
      });
      const untouched = { fresh: await jobRow(db, fresh), completed: await jobRow(db, completed) };

      const expected = await stalledCount(db);
      expect(expected).toBeGreaterThanOrEqual(2);
      expect(await sweep(db)).toBe(expected);

      for (const jobId of [stalled, stalledPending]) {
        const ended = await one<{ status: string; ended_now: boolean; started: boolean }>(
          db,
          `select status, finished_at = now() as ended_now, started_at is not null as started
           from public.bulk_jobs where id = $1`,
          [jobId],
        );
        expect(ended, jobId).toEqual({ status: 'failed', ended_now: true, started: true });
      }
      expect(await jobRow(db, fresh)).toEqual(untouched.fresh);
      expect(await jobRow(db, completed)).toEqual(untouched.completed);

      const ownerNotices = [
        {
          title: 'Batch failed',
          body: 'The batch from spring.csv could not be processed. 1 of 3 links were created.',
          data: { job_id: stalled, total: 3, created: 1, failed: 2, result_path: null },
        },
      ];
      const otherNotices = [
        {
          title: 'Batch failed',
          body: 'The batch from spring.csv could not be processed. 0 of 5 links were created.',
          data: { job_id: stalledPending, total: 5, created: 0, failed: 5, result_path: null },
        },
      ];
      expect(await failureNotices(db, scene.owner.id)).toEqual(ownerNotices);
      expect(await failureNotices(db, scene.other.id)).toEqual(otherNotices);

      // Swept jobs are finished: a second sweep finds nothing of theirs and tells nobody again.
      expect(await sweep(db)).toBe(0);
      expect(await failureNotices(db, scene.owner.id)).toEqual(ownerNotices);
      expect(await failureNotices(db, scene.other.id)).toEqual(otherNotices);
    }));

  it('takes the idle time to allow, and refuses one that is not positive', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const job = await insertJob(db, scene, scene.owner, { idleMinutes: 30 });
      await sweep(db, '40 minutes');
      expect(await jobRow(db, job)).toMatchObject({ status: 'processing' });
      expect(await sweep(db, '20 minutes')).toBeGreaterThanOrEqual(1);
      expect(await jobRow(db, job)).toMatchObject({ status: 'failed' });

      for (const interval of ['0 minutes', '-10 minutes', null]) {
        const error = await expectDatabaseError(
          asServiceRole(db, (as) =>
            as.query(`select app.fail_stalled_bulk_jobs($1::interval)`, [interval]),
          ),
        );
        expect(error.code, String(interval)).toBe('22023');
      }
    }));

  it('is the service role’s alone: visitors and signed-in users cannot run it or its notice', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const stalled = await insertJob(db, scene, scene.owner, { idleMinutes: 30 });
      const calls = [
        `select app.fail_stalled_bulk_jobs()`,
        `select app.fail_stalled_bulk_jobs(interval '1 second')`,
        `select app.notify_bulk_job_outcome(j) from public.bulk_jobs j where j.id = '${stalled}'`,
      ];
      for (const actor of [null, scene.owner.id, scene.other.id]) {
        for (const call of calls) await expectRefusedAs(db, actor, call);
      }
      expect(await jobRow(db, stalled)).toMatchObject({ status: 'processing' });
      expect(await failureNotices(db, scene.owner.id)).toEqual([]);

      const privileges = await all<{ role: string; sweep: boolean; notice: boolean }>(
        db,
        `select r.role,
           has_function_privilege(r.role, 'app.fail_stalled_bulk_jobs(interval)', 'execute')
             as sweep,
           has_function_privilege(r.role, 'app.notify_bulk_job_outcome(public.bulk_jobs)',
             'execute') as notice
         from unnest(array['anon', 'authenticated', 'service_role']) as r(role)`,
      );
      expect(privileges).toEqual([
        { role: 'anon', sweep: false, notice: false },
        { role: 'authenticated', sweep: false, notice: false },
        { role: 'service_role', sweep: true, notice: true },
      ]);
    }));

  it('leaves a swept job closed: a late chunk or finish is refused and writes nothing', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const jobId = await scheduleJob(db, scene.owner, scene.domain, 3);
      await createLinks(db, scene.owner, jobId, [chunkRow(2)]);
      await setIdle(db, jobId, 11);
      expect(await sweep(db)).toBeGreaterThanOrEqual(1);

      const written = () =>
        one<Record<string, number>>(
          db,
          `select
             (select count(*)::int from public.aliases where account_id = $1) as aliases,
             (select count(*)::int from public.long_urls where account_id = $1) as long_urls,
             (select count(*)::int from public.tags where account_id = $1) as tags,
             (select count(*)::int from public.notifications where user_id = $2) as notices`,
          [scene.owner.personalAccountId, scene.owner.id],
        );
      const before = { job: await jobRow(db, jobId), written: await written() };
      expect(before.job).toMatchObject({ status: 'failed', processed: 1, created: 1 });
      expect(before.written).toMatchObject({ aliases: 1, notices: 1 });

      const lateChunk = () =>
        createLinks(db, scene.owner, jobId, [chunkRow(3, ['late']), chunkRow(4)]);
      const lateFinish = () =>
        asActor(db, scene.owner.id, (as) =>
          as.query(`select app.finish_bulk_job($1, false, '{}'::jsonb, $2)`, [
            jobId,
            `${scene.owner.id}/bulk-imports/${jobId}.csv`,
          ]),
        );
      for (const late of [lateChunk, lateFinish]) {
        const error = await expectDatabaseError(late());
        expect({ code: error.code, message: error.message, detail: error.detail }).toEqual({
          code: 'PT404',
          message: 'bulk_job_not_found',
          detail: 'Bulk job not found.',
        });
      }
      expect({ job: await jobRow(db, jobId), written: await written() }).toEqual(before);
    }));
});

describe('the cron job bulk-fail-stalled-jobs', () => {
  const CRON_JOB = 'bulk-fail-stalled-jobs';
  const cronJob = (db: pg.ClientBase) =>
    one<{ jobid: string; schedule: string; command: string; username: string; active: boolean }>(
      db,
      `select jobid, schedule, command, username, active from cron.job where jobname = $1`,
      [CRON_JOB],
    );

  it('runs the sweep every minute, as postgres', () =>
    withRollback(pool, async (db) => {
      expect(await cronJob(db)).toMatchObject({
        schedule: '* * * * *',
        command: 'select app.fail_stalled_bulk_jobs()',
        username: 'postgres',
        active: true,
      });
    }));

  it('ends a stalled job and tells its owner when the scheduler runs it', async () => {
    // The scheduler's own connection must see the job: this scene is committed, then removed.
    const db = await pool.connect();
    const { jobid } = await cronJob(db);
    let scene: Scene | undefined;
    try {
      scene = await createScene(db);
      const stalled = await insertJob(db, scene, scene.owner, { idleMinutes: 11, processed: 1 });
      const startedAfter = await one<{ last: string | null }>(
        db,
        `select max(runid)::text as last from cron.job_run_details where jobid = $1`,
        [jobid],
      );
      // Every second for the time of this test, rather than waiting for the next minute.
      await db.query(`select cron.alter_job($1, schedule => '1 seconds')`, [jobid]);
      await waitFor(
        'the cron job to end the stalled job',
        async () => (await jobRow(db, stalled)).status === 'failed',
        8_000,
        100,
      );
      expect(await failureNotices(db, scene.owner.id)).toHaveLength(1);
      const runs = await all<{ status: string; return_message: string; username: string }>(
        db,
        `select status, return_message, username from cron.job_run_details
         where jobid = $1 and runid > coalesce($2::bigint, 0) and status = 'succeeded'`,
        [jobid, startedAfter.last],
      );
      expect(runs[0]).toEqual({
        status: 'succeeded',
        return_message: 'SELECT 1',
        username: 'postgres',
      });
    } finally {
      await db.query(`select cron.alter_job($1, schedule => '* * * * *')`, [jobid]);
      if (scene) {
        await db.query(`delete from public.bulk_jobs where domain_id = $1`, [scene.domainId]);
        await db.query(`delete from auth.users where id = any($1::uuid[])`, [
          [scene.owner.id, scene.other.id],
        ]);
        await db.query(`delete from public.domains where id = $1`, [scene.domainId]);
      }
      db.release();
    }
  });
});
