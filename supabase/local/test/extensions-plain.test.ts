import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STAND_IN_EXTENSIONS } from '../src/extensions.ts';
import { migrate } from '../src/migrate.ts';

/**
 * A server named by DATABASE_URL whose extension folder the stack cannot write: the stand-ins are
 * installed as plain SQL and the migrations run unchanged, their `create extension` statements
 * for them skipped. Played on a database of its own on the test stack's server.
 */
const env = inject('stackEnv');
const admin = new pg.Client({ connectionString: env.DB_URL });
const database = `plain_ext_${randomUUID().slice(0, 8)}`;
const url = (() => {
  const parsed = new URL(env.DB_URL);
  parsed.pathname = `/${database}`;
  return parsed.toString();
})();

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${database}`);
});

afterAll(async () => {
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

describe('the stand-ins as plain SQL', () => {
  it('give a migrated database the same cron, net and pgmq API without the extensions', async () => {
    const report = await migrate(url, { seed: false, plainExtensions: STAND_IN_EXTENSIONS });
    expect(report.applied).toContain('20261122002310_bulk_stalled_jobs_cron');

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const extensions = await client.query<{ extname: string }>(
        `select extname from pg_extension where extname = any($1)`,
        [STAND_IN_EXTENSIONS],
      );
      expect(extensions.rows).toEqual([]);
      // Every job the migrations schedule, scheduled here as on a server with pg_cron.
      const jobs = await client.query(`select jobname, schedule from cron.job order by jobname`);
      expect(jobs.rows).toEqual([
        { jobname: 'audit-retention', schedule: '17 3 * * *' },
        { jobname: 'bulk-fail-stalled-jobs', schedule: '* * * * *' },
        { jobname: 'domain-purchase', schedule: '5 seconds' },
        { jobname: 'domain-verify', schedule: '5 seconds' },
        { jobname: 'overage-report', schedule: '5 seconds' },
        { jobname: 'paddle-downgrades', schedule: '* * * * *' },
        { jobname: 'usage-periods-roll', schedule: '* * * * *' },
        { jobname: 'webhook-deliver', schedule: '1 seconds' },
        { jobname: 'webhook-flush-clicks', schedule: '10 seconds' },
      ]);
      await client.query(`select pgmq.create('plain')`);
      const sent = await client.query<{ send: string }>(
        `select * from pgmq.send('plain', '{"a": 1}')`,
      );
      const popped = await client.query(`select msg_id::text, message from pgmq.pop('plain')`);
      expect(popped.rows).toEqual([{ msg_id: sent.rows[0]!.send, message: { a: 1 } }]);
      const request = await client.query<{ id: string }>(
        `select net.http_get('http://127.0.0.1:9/') as id`,
      );
      expect(request.rows[0]!.id).toMatch(/^\d+$/);

      // A second start finds them in place and applies nothing again.
      const again = await migrate(url, { seed: false, plainExtensions: STAND_IN_EXTENSIONS });
      expect(again.applied).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
