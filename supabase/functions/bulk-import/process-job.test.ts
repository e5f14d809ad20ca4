/**
 * Jobs of several chunks over the running stack's database, as the function runs them: two chunks
 * in the database at once (migration 20261122007400), with the verdicts of chunks sent one at a
 * time: a plan limit reached in a later chunk decided in file order, and destinations shared
 * across chunks with one main alias each; a short chunk after a full one, with no deadlock
 * between them; and a chunk that loses a real deadlock, sent again.
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { shortUrlBaseFromEnv } from '../_shared/short-url.ts';
import { useStackAsRuntimeEnv, userAuthorization, waitFor } from '../_shared/testing.ts';
import { isDeadlock } from './jobs.ts';
import { CHUNK_ROWS } from './limits.ts';
import { messageOf, processJob } from './process-job.ts';
import type { BulkRow } from './rows.ts';

const env = useStackAsRuntimeEnv();

interface JobScene {
  accountId: string;
  /** Runs a job of these rows to its end; its row afterwards. */
  run(rows: BulkRow[]): Promise<JobRow>;
}

interface JobRow {
  status: string;
  processed: number;
  created: number;
  errors: Record<string, Record<string, string[]>>;
}

/** A user allowed bulk with every plan limit far above the job but max_aliases (if given). */
async function withJobScene(maxAliases: number | null, test: (scene: JobScene) => Promise<void>) {
  const suffix = crypto.randomUUID().slice(0, 8);
  const userId = crypto.randomUUID();
  const domain = `process-job-${suffix}.localhost`;
  let domainId: string | undefined;
  try {
    await sql()`
      insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at, created_at,
        updated_at)
      values (${userId}, '00000000-0000-0000-0000-000000000000', 'authenticated',
        'authenticated', ${`bulk-chunks-${suffix}@example.test`}, now(), now(), now())`;
    const [account] = await sql()<{ id: string }[]>`
      update public.accounts a set features = '{create_tiny_url,use_bulk}'
      from public.profiles p where p.id = ${userId} and a.id = p.personal_account_id
      returning a.id`;
    const accountId = account!.id;
    await sql()`
      insert into public.account_usage (account_id, name, "limit")
      select ${accountId}, option,
        case when option = 'max_aliases' then coalesce(${maxAliases}::bigint, 1000000000)
          else 1000000000 end
      from unnest(app.plan_count_options()) as option`;
    const [created] = await sql()<{ id: string }[]>`
      insert into public.domains (domain, kind, verification_status, verified_at)
      values (${domain}, 'common', 'verified', now())
      returning id`;
    domainId = created!.id;
    const request = new Request('http://functions.test/bulk-import/bulk/csv', {
      headers: { Authorization: await userAuthorization(env, userId) },
    });
    const run = async (rows: BulkRow[]) => {
      const jobId = crypto.randomUUID();
      await sql()`
        insert into public.bulk_jobs (id, account_id, created_by, domain_id, file_path,
          file_name, file_type, total)
        values (${jobId}, ${accountId}, ${userId}, ${domainId!}, ${`${userId}/${jobId}.csv`},
          'chunks.csv', 'csv', ${rows.length})`;
      await processJob(request, { id: jobId, userId, domain, rows }, shortUrlBaseFromEnv());
      const [job] = await sql()<JobRow[]>`
        select status, processed, created, errors from public.bulk_jobs where id = ${jobId}`;
      return job!;
    };
    await test({ accountId, run });
  } finally {
    if (domainId) await sql()`delete from public.bulk_jobs where domain_id = ${domainId}`;
    await sql()`delete from auth.users where id = ${userId}`;
    if (domainId) await sql()`delete from public.domains where id = ${domainId}`;
    await closeSql();
  }
}

const rowsTo = (count: number, url: (index: number) => string): BulkRow[] =>
  Array.from({ length: count }, (_, index) => ({
    row: index + 2,
    url: url(index),
    alias: '',
    tags: '',
  }));

Deno.test(
  'a limit reached in a later chunk: the first rows in file order get the room left',
  async () => {
    // Room for the first chunk and 4 rows of the second.
    const room = CHUNK_ROWS + 4;
    await withJobScene(room, async ({ accountId, run }) => {
      const rows = rowsTo(CHUNK_ROWS + 10, (index) => `https://example.com/room/${index}`);
      const job = await run(rows);
      assert.equal(job.status, 'completed');
      assert.equal(job.processed, rows.length);
      assert.equal(job.created, room);
      assert.deepEqual(
        Object.keys(job.errors).map(Number),
        rows.slice(room).map(({ row }) => row),
      );
      assert.deepEqual(job.errors[String(rows[room]!.row)], {
        form: [messageOf('plan_limit_reached')],
      });
      const [links] = await sql()<{ count: number; last: number }[]>`
      select count(*)::int as count,
        max(split_part(l.url, '/', 5)::int) as last
      from public.aliases a join public.long_urls l on l.id = a.long_url_id
      where a.account_id = ${accountId}`;
      assert.deepEqual(links, { count: room, last: room - 1 });
    });
  },
);

Deno.test('destinations shared across chunks: every row a link, one main alias each', async () => {
  await withJobScene(null, async ({ accountId, run }) => {
    const rows = rowsTo(CHUNK_ROWS + 5, (index) => `https://example.com/shared/${index % 7}`);
    const job = await run(rows);
    assert.deepEqual(
      { status: job.status, processed: job.processed, created: job.created, errors: job.errors },
      { status: 'completed', processed: rows.length, created: rows.length, errors: {} },
    );
    const destinations = await sql()<{ url: string; links: number; main: number }[]>`
      select l.url, count(*)::int as links, count(*) filter (where a.is_main)::int as main
      from public.aliases a join public.long_urls l on l.id = a.long_url_id
      where a.account_id = ${accountId} group by l.url`;
    assert.equal(destinations.length, 7);
    assert.ok(destinations.every(({ main }) => main === 1));
    assert.equal(
      destinations.reduce((sum, { links }) => sum + links, 0),
      rows.length,
    );
  });
});

/** Deadlocks Postgres has broken in this database (pg_stat_database, flushed lazily). */
async function deadlockCount(): Promise<number> {
  const [row] = await sql()<{ deadlocks: number }[]>`
    select deadlocks::int as deadlocks from pg_stat_database where datname = current_database()`;
  return row!.deadlocks;
}

/** Whether a bulk_create_links call is waiting for a lock the session `pid` holds. */
async function chunkWaitsOn(pid: number): Promise<boolean> {
  const [row] = await sql()<{ waiting: boolean }[]>`
    select exists (
      select 1 from pg_stat_activity a
      where ${pid} = any(pg_blocking_pids(a.pid)) and a.query like '%app.bulk_create_links(%'
    ) as waiting`;
  return row!.waiting;
}

Deno.test('a chunk that loses a deadlock is sent again: every row created once', async () => {
  await withJobScene(null, async ({ accountId, run }) => {
    const rows = rowsTo(5, (index) => `https://example.com/deadlock/${index}`);
    const deadlocksBefore = await deadlockCount();
    // Another transaction of the account's, on a connection of its own: it wrote one of the
    // job's destinations and then wants the account's credits row the chunk holds meanwhile.
    const other = await sql().reserve();
    let job: Promise<JobRow> | undefined;
    try {
      const [session] = await other<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await other`begin`;
      // The chunk's session (deadlock_timeout 1 s) then checks first: it is the one ended.
      await other`set local deadlock_timeout = '10s'`;
      await other`
        insert into public.long_urls (account_id, url) values (${accountId}, ${rows[0]!.url})`;
      job = run(rows);
      job.catch(() => {});
      // Blocked in its long URL upsert, after it locked the account's credits row.
      // Polled often: the chunk's session checks for a deadlock 1 s after it starts to wait, and
      // the cycle must be closed before then for that check to find it.
      await waitFor(
        'the chunk to wait on the other transaction',
        () => chunkWaitsOn(session!.pid),
        {
          intervalMs: 10,
        },
      );
      const lost = await other`
        select 1 from public.account_usage
        where account_id = ${accountId} and name = 'max_web_credits'
        for update`.then(
        () => false,
        (error: unknown) => {
          if (isDeadlock(error)) return true;
          throw error;
        },
      );
      assert.equal(lost, false, 'the chunk, not the other transaction, is ended by the deadlock');
      // Granted: the chunk was rolled back. Its second call waits for this row meanwhile.
      const [kept] = await sql()<{ processed: number; links: number }[]>`
        select j.processed,
          (select count(*)::int from public.aliases a where a.account_id = ${accountId}) as links
        from public.bulk_jobs j where j.account_id = ${accountId}`;
      assert.deepEqual(kept, { processed: 0, links: 0 });
    } finally {
      // At once: the chunk's second call (or, after a failure above, the first) goes on.
      await other`rollback`;
      other.release();
      await job?.catch(() => {});
    }
    assert.deepEqual(await job, {
      status: 'completed',
      processed: rows.length,
      created: rows.length,
      errors: {},
    });
    const links = await sql()<{ url: string; links: number; main: number }[]>`
      select l.url, count(a.id)::int as links, count(*) filter (where a.is_main)::int as main
      from public.long_urls l left join public.aliases a on a.long_url_id = l.id
      where l.account_id = ${accountId} group by l.url order by l.url`;
    assert.deepEqual(
      [...links],
      rows.map(({ url }) => ({ url, links: 1, main: 1 })),
    );
    const [credits] = await sql()<{ used: number }[]>`
      select used::int from public.account_usage
      where account_id = ${accountId} and name = 'max_web_credits'`;
    assert.equal(credits!.used, rows.length);
    // Each backend reports its deadlocks when it next goes idle, up to 10 s later.
    await waitFor(
      'pg_stat_database to count the deadlock',
      async () => (await deadlockCount()) > deadlocksBefore,
      { timeoutMs: 15_000 },
    );
  });
});

Deno.test(
  'a short chunk after a full one takes its place with no deadlock between them',
  async () => {
    const deadlocksBefore = await deadlockCount();
    await withJobScene(null, async ({ run }) => {
      // The short chunk is sent while the full one still loads its rows (20261122008100).
      const rows = rowsTo(CHUNK_ROWS + 10, (index) => `https://example.com/tail/${index}`);
      assert.deepEqual(await run(rows), {
        status: 'completed',
        processed: rows.length,
        created: rows.length,
        errors: {},
      });
    });
    // withJobScene has closed the pool: its backends report their deadlocks as they exit.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(await deadlockCount(), deadlocksBefore);
    await closeSql();
  },
);
