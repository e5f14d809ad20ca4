import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../local/src/ports.ts';
import {
  all,
  type BulkChunkAnswer,
  type BulkChunkRow,
  createUser,
  one,
  useDatabase,
  type TestUser,
} from '../support/index.ts';
import { createDomain, givePlan, LINK_FEATURES, type TestDomain } from './fixtures.ts';

/**
 * Two chunks of a job in flight at once (migration 20261122007400): a chunk sent optimistic while
 * the one before it is still open commits after it, with the verdicts it would get alone; it keeps
 * nothing when the chunk before fails or a limit would stop one of its rows, and the chunk sent
 * again alone then decides. The chunks run on connections of their own, so scenes are committed
 * (and removed at the end).
 */
const pool = useDatabase();

interface Place {
  after: number;
  optimistic: boolean;
}

const users: TestUser[] = [];
let domain: TestDomain;

beforeAll(async () => {
  const db = await pool.connect();
  try {
    domain = await createDomain(db);
  } finally {
    db.release();
  }
});

afterAll(async () => {
  await pool.query(`delete from public.bulk_jobs where domain_id = $1`, [domain.id]);
  await pool.query(`delete from auth.users where id = any($1::uuid[])`, [users.map((u) => u.id)]);
  await pool.query(`delete from public.domains where id = $1`, [domain.id]);
});

/** A committed user whose plan allows bulk, aliases and tags (and these limits), and a job. */
async function createScene(options: Record<string, unknown> = {}) {
  const db = await pool.connect();
  try {
    const user = await createUser(db);
    users.push(user);
    await givePlan(db, user.personalAccountId, {
      features: [...LINK_FEATURES, 'create_tiny_url'],
      options,
    });
    const job = await one<{ id: string }>(
      db,
      `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, file_name,
         file_type, total)
       values ($1, $2::uuid, $3, $2::text || '/' || gen_random_uuid() || '.csv', 'list.csv',
         'csv', 100)
       returning id`,
      [user.personalAccountId, user.id, domain.id],
    );
    return { user, jobId: job.id };
  } finally {
    db.release();
  }
}

type Scene = Awaited<ReturnType<typeof createScene>>;

/** A chunk called as the job's owner in a transaction left open: commit or roll it back. */
async function openChunk(scene: Scene, rows: BulkChunkRow[], place: Place) {
  const db = await pool.connect();
  await db.query('begin');
  await db.query(`set local role authenticated`);
  await db.query(`select set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: scene.user.id, role: 'authenticated' }),
  ]);
  const { pid } = await one<{ pid: number }>(db, `select pg_backend_pid() as pid`);
  const answer = one<{ answer: BulkChunkAnswer }>(
    db,
    `select app.bulk_create_links($1, $2::jsonb, 0, $3, $4) as answer`,
    [scene.jobId, JSON.stringify(rows), place.after, place.optimistic],
  ).then(({ answer }) => answer);
  // Settled by the test; never left unhandled meanwhile.
  answer.catch(() => {});
  const end = async (how: 'commit' | 'rollback') => {
    try {
      await db.query(how);
    } finally {
      db.release();
    }
  };
  return { pid, answer, end };
}

/** A chunk committed on its own connection (or rolled back when it fails). */
async function runChunk(
  scene: Scene,
  rows: BulkChunkRow[],
  place: Place,
): Promise<BulkChunkAnswer> {
  const chunk = await openChunk(scene, rows, place);
  try {
    const answer = await chunk.answer;
    await chunk.end('commit');
    return answer;
  } catch (error) {
    await chunk.end('rollback');
    throw error;
  }
}

/** Until the backend waits for a lock (the chunk before's, or a row it wrote). */
const waitsForLock = (pid: number) =>
  waitFor(
    'the optimistic chunk to wait for the chunk before it',
    async () =>
      (
        await one<{ waiting: boolean }>(
          pool,
          `select coalesce(bool_or(wait_event_type = 'Lock'), false) as waiting
           from pg_stat_activity where pid = $1`,
          [pid],
        )
      ).waiting,
    5_000,
    20,
  );

const aliasesOf = (accountId: string) =>
  all<{ alias: string; url: string; is_main: boolean }>(
    pool,
    `select a.alias::text as alias, l.url, a.is_main
     from public.aliases a join public.long_urls l on l.id = a.long_url_id
     where a.account_id = $1 order by a.alias`,
    [accountId],
  );

const jobOf = (jobId: string) =>
  one<{ processed: number; created: number }>(
    pool,
    `select processed, created from public.bulk_jobs where id = $1`,
    [jobId],
  );

const url = (path: string) => `https://example.com/${path}`;

describe('bulk_create_links: two chunks in flight', () => {
  it('an optimistic chunk commits after the chunk before it, with the verdicts it would get alone', async () => {
    const scene = await createScene();
    const first = await openChunk(
      scene,
      [
        { row: 1, url: url('shared'), alias: 'order-a1', tags: ['first'] },
        { row: 2, url: url('a2'), alias: 'order-a2', tags: [] },
      ],
      { after: 0, optimistic: false },
    );
    await first.answer;
    const second = await openChunk(
      scene,
      [
        // The destination the open chunk wrote: its main alias is the first chunk's.
        { row: 3, url: url('shared'), alias: 'order-b3', tags: ['first'] },
        // The alias the open chunk took.
        { row: 4, url: url('b4'), alias: 'ORDER-A2', tags: [] },
        { row: 5, url: url('b5'), random_alias: 'Order05x', tags: [] },
      ],
      { after: 2, optimistic: true },
    );
    await waitsForLock(second.pid);
    await first.end('commit');
    const answer = await second.answer;
    await second.end('commit');
    expect(answer).toEqual({
      short_url_prefix: expect.any(String) as unknown,
      created: [
        [3, 'order-b3'],
        [5, 'Order05x'],
      ],
      errors: [[4, 'alias', 'alias_taken']],
    });
    expect(await aliasesOf(scene.user.personalAccountId)).toEqual([
      { alias: 'order-a1', url: url('shared'), is_main: true },
      { alias: 'order-a2', url: url('a2'), is_main: true },
      { alias: 'order-b3', url: url('shared'), is_main: false },
      { alias: 'Order05x', url: url('b5'), is_main: true },
    ]);
    expect(await jobOf(scene.jobId)).toEqual({ processed: 5, created: 4 });
  });

  it('keeps nothing of an optimistic chunk whose predecessor fails', async () => {
    const scene = await createScene();
    const first = await openChunk(scene, [{ row: 1, url: url('gone'), tags: [] }], {
      after: 0,
      optimistic: false,
    });
    await first.answer;
    const second = await openChunk(
      scene,
      [{ row: 2, url: url('after-gone'), alias: 'order-after', tags: [] }],
      { after: 1, optimistic: true },
    );
    await waitsForLock(second.pid);
    await first.end('rollback');
    await expect(second.answer).rejects.toMatchObject({
      code: '40001',
      message: 'bulk chunk out of order',
    });
    await second.end('rollback');
    expect(await aliasesOf(scene.user.personalAccountId)).toEqual([]);
    expect(await jobOf(scene.jobId)).toEqual({ processed: 0, created: 0 });
  });

  it('leaves a limit an optimistic chunk would reach to the chunk sent again alone', async () => {
    const scene = await createScene({ max_aliases: 3 });
    const first = await openChunk(
      scene,
      [
        { row: 1, url: url('l1'), tags: [] },
        { row: 2, url: url('l2'), tags: [] },
      ],
      { after: 0, optimistic: false },
    );
    await first.answer;
    // Room for both rows when it starts, for one once the chunk before is counted.
    const rows = [
      { row: 3, url: url('l3'), alias: 'order-l3', tags: [] },
      { row: 4, url: url('l4'), alias: 'order-l4', tags: [] },
    ];
    const second = await openChunk(scene, rows, { after: 2, optimistic: true });
    await waitsForLock(second.pid);
    await first.end('commit');
    await expect(second.answer).rejects.toMatchObject({ code: '40001' });
    await second.end('rollback');
    expect(await jobOf(scene.jobId)).toEqual({ processed: 2, created: 2 });
    // Sent again alone: the first row in file order gets the room left.
    expect(await runChunk(scene, rows, { after: 2, optimistic: false })).toMatchObject({
      created: [[3, 'order-l3']],
      errors: [[4, 'form', 'plan_limit_reached']],
    });
    expect((await aliasesOf(scene.user.personalAccountId)).map((a) => a.url).sort()).toEqual([
      url('l1'),
      url('l2'),
      url('l3'),
    ]);
    expect(await jobOf(scene.jobId)).toEqual({ processed: 4, created: 3 });
  });

  it('refuses a chunk sent alone out of its place, and writes nothing', async () => {
    const scene = await createScene();
    await expect(
      runChunk(scene, [{ row: 3, url: url('early'), tags: [] }], { after: 2, optimistic: false }),
    ).rejects.toMatchObject({ code: '40001' });
    await expect(
      runChunk(scene, [{ row: 3, url: url('early'), tags: [] }], { after: 2, optimistic: true }),
    ).rejects.toMatchObject({ code: '40001' });
    expect(await aliasesOf(scene.user.personalAccountId)).toEqual([]);
    expect(await jobOf(scene.jobId)).toEqual({ processed: 0, created: 0 });
  });
});
