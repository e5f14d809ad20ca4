/**
 * The job status route over the running stack's database: a job written as the function leaves
 * it mid-way, read through the handler index.ts serves. (Jobs cut off mid-way are ended by the
 * cron job bulk-fail-stalled-jobs, tested in supabase/tests/links/bulk-stalled.test.ts.)
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { bulkImport } from './handler.ts';

const env = useStackAsRuntimeEnv();

interface SceneUser {
  id: string;
  accountId: string;
  authorization: string;
}

interface Scene {
  owner: SceneUser;
  stranger: SceneUser;
  /** A job of the owner's as a running process leaves it after its first chunk. */
  job(): Promise<string>;
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
      insert into public.domains (domain, kind) values (${`job-status-${suffix}.localhost`}, 'common')
      returning id`;
    domainId = domain!.id;
    const job = async () => {
      const id = crypto.randomUUID();
      await sql()`
        insert into public.bulk_jobs (id, account_id, created_by, domain_id, file_path, file_name,
          file_type, status, total, processed, created, started_at)
        values (${id}, ${owner.accountId}, ${owner.id}, ${domainId!},
          ${`${owner.id}/${id}.csv`}, 'spring.csv', 'csv', 'processing', 3, 1, 1, now())`;
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

Deno.test("the status route: someone else's job is not found, and only GET reads it", async () => {
  await withScene(async ({ owner, stranger, job }) => {
    const running = await job();
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
