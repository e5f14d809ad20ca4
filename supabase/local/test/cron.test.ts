import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../src/ports.ts';

/**
 * Supabase Cron on the local stack: pg_cron's SQL API (supabase/local/sql/extensions) and the
 * stack's runner (src/cron). Jobs here run every second so that the file takes seconds.
 */
const env = inject('stackEnv');
const db = new pg.Pool({ connectionString: env.DB_URL, max: 6 });
db.on('error', () => {});
const suffix = randomUUID().slice(0, 8);
const owner = `cron_owner_${suffix}`;
const probe = `public.cron_probe_${suffix}`;

interface Run {
  runid: string;
  status: string;
  return_message: string | null;
  username: string;
  command: string;
  job_pid: number | null;
  start_time: Date;
  end_time: Date | null;
}

const runsOf = async (jobid: string) =>
  (
    await db.query<Run>(
      `select runid, status, return_message, username, command, job_pid, start_time, end_time
       from cron.job_run_details where jobid = $1 order by start_time, runid`,
      [jobid],
    )
  ).rows;

/** Runs `sql` as the job owner role, as a user granted the cron schema would. */
async function asOwner<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
  const client = await db.connect();
  try {
    await client.query(`set role ${owner}`);
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.query('reset role').catch(() => undefined);
    client.release();
  }
}

async function schedule(name: string, when: string, command: string): Promise<string> {
  const [row] = await asOwner<{ jobid: string }>(`select cron.schedule($1, $2, $3) as jobid`, [
    name,
    when,
    command,
  ]);
  return row!.jobid;
}

const probeRows = async () =>
  (await db.query<{ who: string; tag: string }>(`select who, tag from ${probe} order by at`)).rows;

beforeAll(async () => {
  await db.query(`create role ${owner} nologin`);
  await db.query(`grant usage on schema cron to ${owner}`);
  await db.query(
    `create table ${probe} (who text not null, tag text, at timestamptz default clock_timestamp())`,
  );
  await db.query(`grant insert on ${probe} to ${owner}`);
});

afterAll(async () => {
  await db.query(`delete from cron.job where username = $1`, [owner]);
  await db.query(`delete from cron.job_run_details where username = $1`, [owner]);
  await db.query(`drop table if exists ${probe}`);
  await db.query(`drop owned by ${owner}`);
  await db.query(`drop role if exists ${owner}`);
  await db.end();
});

describe.concurrent('cron.schedule', () => {
  it('runs a job every second as the role that scheduled it, and records each run', async () => {
    const command = `insert into ${probe} (who, tag) values (current_user, 'every-second')`;
    const jobid = await schedule(`every-second-${suffix}`, '1 seconds', command);

    const [job] = await asOwner<Record<string, unknown>>(
      `select jobname, schedule, command, nodename, database, username, active from cron.job
       where jobid = $1`,
      [jobid],
    );
    expect(job).toEqual({
      jobname: `every-second-${suffix}`,
      schedule: '1 seconds',
      command,
      nodename: 'localhost',
      database: 'postgres',
      username: owner,
      active: true,
    });

    await waitFor(
      'two recorded runs',
      async () => (await runsOf(jobid)).filter((run) => run.status === 'succeeded').length >= 2,
      8_000,
      100,
    );
    const [first] = (await runsOf(jobid)).filter((run) => run.status === 'succeeded');
    expect(first).toMatchObject({ return_message: 'INSERT 0 1', username: owner, command });
    expect(first!.job_pid).toEqual(expect.any(Number));
    expect(first!.end_time!.getTime()).toBeGreaterThanOrEqual(first!.start_time.getTime());
    const rows = (await probeRows()).filter((row) => row.tag === 'every-second');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rows.map((row) => row.who))).toEqual(new Set([owner]));

    // Users see only their own jobs and runs (postgres's sweep job is not the owner's).
    const visible = await asOwner<{ jobs: number; foreign_runs: number }>(
      `select (select count(*)::int from cron.job where username <> current_user) as jobs,
         (select count(*)::int from cron.job_run_details where username <> current_user) as foreign_runs`,
    );
    expect(visible).toEqual([{ jobs: 0, foreign_runs: 0 }]);

    // Scheduling the same name again changes that job, it does not add one.
    expect(await schedule(`every-second-${suffix}`, '2 seconds', command)).toBe(jobid);

    // unschedule by name stops it: no run starts after it.
    const [gone] = await asOwner<{ done: boolean }>(`select cron.unschedule($1) as done`, [
      `every-second-${suffix}`,
    ]);
    expect(gone!.done).toBe(true);
    await waitFor(
      'the last run to end',
      async () => (await runsOf(jobid)).every((run) => run.end_time !== null),
      5_000,
      100,
    );
    const settled = (await runsOf(jobid)).length;
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await runsOf(jobid)).length).toBe(settled);
    await expect(asOwner(`select cron.unschedule($1)`, [`every-second-${suffix}`])).rejects.toThrow(
      `could not find valid entry for job 'every-second-${suffix}'`,
    );
  });

  it('records a failing command as failed, with its error', async () => {
    const jobid = await schedule(`failing-${suffix}`, '1 seconds', 'select 1 / 0');
    await waitFor(
      'a failed run',
      async () => (await runsOf(jobid)).some((run) => run.status === 'failed'),
      5_000,
      100,
    );
    await asOwner(`select cron.unschedule($1::bigint)`, [jobid]);
    const failed = (await runsOf(jobid)).find((run) => run.status === 'failed');
    expect(failed).toMatchObject({ return_message: 'division by zero', username: owner });
    expect(failed!.end_time).not.toBeNull();
  });

  it('runs one instance of a job at a time: a run due meanwhile starts when the last ends', async () => {
    const jobid = await schedule(`slow-${suffix}`, '1 seconds', 'select pg_sleep(1.5)');
    await waitFor('three runs', async () => (await runsOf(jobid)).length >= 3, 10_000, 100);
    await asOwner(`select cron.unschedule($1::bigint)`, [jobid]);
    const runs = (await runsOf(jobid)).slice(0, 3);
    expect(runs[0]!.status).toBe('succeeded');
    expect(runs[1]!.status).toBe('succeeded');
    for (const [before, after] of [
      [runs[0]!, runs[1]!],
      [runs[1]!, runs[2]!],
    ] as const) {
      // Never overlapping, and queued rather than skipped: the next starts right after.
      expect(after.start_time.getTime()).toBeGreaterThanOrEqual(before.end_time!.getTime());
      expect(after.start_time.getTime() - before.end_time!.getTime()).toBeLessThan(600);
    }
  });

  it('alter_job changes a job’s schedule and pauses it; bad schedules are refused', async () => {
    const tag = `altered`;
    const jobid = await schedule(
      `altered-${suffix}`,
      '0 0 1 1 *',
      `insert into ${probe} (who, tag) values (current_user, '${tag}')`,
    );
    const count = async () => (await probeRows()).filter((row) => row.tag === tag).length;
    await asOwner(`select cron.alter_job($1, schedule => '1 seconds')`, [jobid]);
    await waitFor('the altered job to run', async () => (await count()) >= 1, 5_000, 100);

    await asOwner(`select cron.alter_job($1, active => false)`, [jobid]);
    const [job] = await asOwner<{ schedule: string; active: boolean }>(
      `select schedule, active from cron.job where jobid = $1`,
      [jobid],
    );
    expect(job).toEqual({ schedule: '1 seconds', active: false });
    await waitFor(
      'the last run to end',
      async () => (await runsOf(jobid)).every((run) => run.end_time !== null),
      5_000,
      100,
    );
    const paused = await count();
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect(await count()).toBe(paused);

    for (const bad of [
      '61 * * * *',
      '* * * *',
      '0 seconds',
      '60 seconds',
      '*/0 * * * *',
      '*/90 * * * *',
      'often',
    ]) {
      await expect(
        asOwner(`select cron.alter_job($1, schedule => $2)`, [jobid, bad]),
        bad,
      ).rejects.toThrow(`invalid schedule: ${bad}`);
      await expect(schedule(`bad-${suffix}`, bad, 'select 1'), bad).rejects.toThrow(
        'invalid schedule',
      );
    }
    for (const good of [
      '*/5 * * * *',
      '0 3 * * sun',
      '30 2 $ * *',
      '@daily',
      '0 9-17/2 * jan,jul 1-5',
      '59 seconds',
    ]) {
      await asOwner(`select cron.alter_job($1, schedule => $2)`, [jobid, good]);
    }
    // Only a superuser may hand a job to another role.
    await expect(
      asOwner(`select cron.alter_job($1, username => 'postgres')`, [jobid]),
    ).rejects.toThrow('must be superuser');
    await asOwner(`select cron.unschedule($1::bigint)`, [jobid]);
  });

  it('is refused to roles not granted the cron schema', async () => {
    const client = await db.connect();
    try {
      await client.query('set role authenticated');
      await expect(client.query(`select cron.schedule('* * * * *', 'select 1')`)).rejects.toThrow(
        'permission denied for schema cron',
      );
    } finally {
      await client.query('reset role');
      client.release();
    }
  });
});
