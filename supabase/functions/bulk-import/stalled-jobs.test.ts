/**
 * A request to the function ends the jobs whose process was cut off: over the running stack's
 * database, jobs written as the function leaves them mid-way, their progress set back in time,
 * then a status read or an upload through the handler index.ts serves.
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { bulkImport } from './handler.ts';
import type { JobStatus } from './jobs.ts';

const env = useStackAsRuntimeEnv();

interface SceneUser {
  id: string;
  accountId: string;
  authorization: string;
}

interface Scene {
  owner: SceneUser;
  stranger: SceneUser;
  /** A job of the owner's as a process cut off after its first chunk leaves it. */
  job(options: { stalledMinutes: number }): Promise<string>;
}

async function createUser(suffix: string, label: string): Promise<SceneUser> {
  const id = crypto.randomUUID();
  await sql()`
    insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at, created_at,
      updated_at)
    values (${id}, '00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated',
      ${`bulk-${label}-${suffix}@example.test`}, now(), now(), now())`;
  const [profile] = await sql()<{ account_id: string }[]>`
    select personal_account_id as account_id from public.profiles where id = ${id}`;
  return {
    id,
    accountId: profile!.account_id,
    authorization: await userAuthorization(env, id),
  };
}

async function withScene(run: (scene: Scene) => Promise<void>): Promise<void> {
  const suffix = crypto.randomUUID().slice(0, 8);
  const users: string[] = [];
  let domainId: string | undefined;
  try {
    const owner = await createUser(suffix, 'owner');
    const stranger = await createUser(suffix, 'stranger');
    users.push(owner.id, stranger.id);
    const [domain] = await sql()<{ id: string }[]>`
      insert into public.domains (domain, kind) values (${`stalled-${suffix}.localhost`}, 'common')
      returning id`;
    domainId = domain!.id;
    const job = async ({ stalledMinutes }: { stalledMinutes: number }) => {
      const id = crypto.randomUUID();
      await sql()`
        insert into public.bulk_jobs (id, account_id, created_by, domain_id, file_path, file_name,
          file_type, status, total, processed, created, started_at)
        values (${id}, ${owner.accountId}, ${owner.id}, ${domainId!},
          ${`${owner.id}/${id}.csv`}, 'spring.csv', 'csv', 'processing', 3, 1, 1, now())`;
      // Inserting stamps the progress now (a trigger); the cut-off is told by setting it back.
      await sql()`
        update public.bulk_jobs
        set progressed_at = now() - make_interval(mins => ${stalledMinutes})
        where id = ${id}`;
      return id;
    };
    await run({ owner, stranger, job });
  } finally {
    if (domainId) await sql()`delete from public.bulk_jobs where domain_id = ${domainId}`;
    await sql()`delete from auth.users where id = any(${users}::uuid[])`;
    if (domainId) await sql()`delete from public.domains where id = ${domainId}`;
    await closeSql();
  }
}

const statusRead = (jobId: string, authorization: string, method = 'GET') =>
  bulkImport(
    new Request(`http://functions.test/bulk-import/bulk/jobs/${jobId}`, {
      method,
      headers: { Authorization: authorization },
    }),
  );

async function failureNotices(userId: string) {
  // A plain array: postgres.js answers an Array subclass, which deepEqual tells apart.
  return [
    ...(await sql()<{ title: string; body: string; job_id: string }[]>`
    select title, body, data ->> 'job_id' as job_id from public.notifications
    where user_id = ${userId} and type = 'bulk_import.failed'
    order by created_at`),
  ];
}

Deno.test('a status read ends its stalled job as failed and tells the owner once', async () => {
  await withScene(async ({ owner, job }) => {
    const stalled = await job({ stalledMinutes: 11 });
    const running = await job({ stalledMinutes: 2 });

    const answer = await statusRead(stalled, owner.authorization);
    assert.equal(answer.status, 200);
    const read = (await answer.json()) as JobStatus;
    assert.equal(read.job_id, stalled);
    assert.equal(read.status, 'failed');
    assert.deepEqual([read.total, read.processed, read.created], [3, 1, 1]);
    assert.ok(read.finished_at, 'a failed job has its end');
    assert.ok(!Number.isNaN(Date.parse(read.finished_at)), read.finished_at);

    const runningRead = (await (
      await statusRead(running, owner.authorization)
    ).json()) as JobStatus;
    assert.equal(runningRead.status, 'processing');
    assert.equal(runningRead.finished_at, null);

    assert.deepEqual(await failureNotices(owner.id), [
      {
        title: 'Batch failed',
        body: 'The batch from spring.csv could not be processed. 1 of 3 links were created.',
        job_id: stalled,
      },
    ]);
  });
});

Deno.test('an upload sweeps too, whoever sends it and even when it is refused', async () => {
  await withScene(async ({ owner, stranger, job }) => {
    const stalled = await job({ stalledMinutes: 30 });
    const answer = await bulkImport(
      new Request('http://functions.test/bulk-import/bulk/csv', {
        method: 'POST',
        headers: { Authorization: stranger.authorization },
        body: new FormData(),
      }),
    );
    assert.equal(answer.status, 422);
    await answer.body?.cancel();
    const [row] = await sql()<{ status: string }[]>`
      select status from public.bulk_jobs where id = ${stalled}`;
    assert.equal(row!.status, 'failed');
    assert.equal((await failureNotices(owner.id)).length, 1);
  });
});

Deno.test("the status route: someone else's job is not found, and only GET reads it", async () => {
  await withScene(async ({ owner, stranger, job }) => {
    const running = await job({ stalledMinutes: 0 });
    const foreign = await statusRead(running, stranger.authorization);
    assert.equal(foreign.status, 404);
    assert.deepEqual(await foreign.json(), {
      code: 'bulk_job_not_found',
      message: 'Bulk job not found.',
    });
    const posted = await statusRead(running, owner.authorization, 'POST');
    assert.equal(posted.status, 405);
    await posted.body?.cancel();
    const guest = await statusRead(running, `Bearer ${env.SUPABASE_ANON_KEY}`);
    assert.equal(guest.status, 401);
    await guest.body?.cancel();
  });
});
