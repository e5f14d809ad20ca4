/**
 * A job of several chunks over the running stack's database, as the function runs it: two chunks
 * in the database at once (migration 20261122007400), and a plan limit reached in the second
 * chunk decided in file order, as a job sent one chunk at a time would have it.
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { shortUrlBaseFromEnv } from '../_shared/short-url.ts';
import { userAuthorization, useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { CHUNK_ROWS } from './limits.ts';
import { messageOf, processJob } from './process-job.ts';
import type { BulkRow } from './rows.ts';

const env = useStackAsRuntimeEnv();

Deno.test(
  'a limit reached in a later chunk: the first rows in file order get the room left',
  async () => {
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
      // Room for the first chunk and 4 rows of the second (the third gets none); every other
      // limit far above the job.
      const room = CHUNK_ROWS + 4;
      await sql()`
      insert into public.account_usage (account_id, name, "limit")
      select ${
        account!.id
      }, option, case when option = 'max_aliases' then ${room} else 1000000000 end
      from unnest(app.plan_count_options()) as option`;
      const [created] = await sql()<{ id: string }[]>`
      insert into public.domains (domain, kind, verification_status, verified_at)
      values (${domain}, 'common', 'verified', now())
      returning id`;
      domainId = created!.id;
      const rows: BulkRow[] = Array.from({ length: 2 * CHUNK_ROWS + 5 }, (_, index) => ({
        row: index + 2,
        url: `https://example.com/chunks/${suffix}/${index}`,
        alias: '',
        tags: '',
      }));
      const jobId = crypto.randomUUID();
      await sql()`
      insert into public.bulk_jobs (id, account_id, created_by, domain_id, file_path, file_name,
        file_type, total)
      values (${jobId}, ${account!.id}, ${userId}, ${domainId}, ${`${userId}/${jobId}.csv`},
        'chunks.csv', 'csv', ${rows.length})`;
      const request = new Request('http://functions.test/bulk-import/bulk/csv', {
        headers: { Authorization: await userAuthorization(env, userId) },
      });

      await processJob(request, { id: jobId, userId, domain, rows }, shortUrlBaseFromEnv());

      const [job] = await sql()<
        {
          status: string;
          processed: number;
          created: number;
          errors: Record<string, unknown>;
        }[]
      >`
      select status, processed, created, errors from public.bulk_jobs where id = ${jobId}`;
      assert.equal(job!.status, 'completed');
      assert.equal(job!.processed, rows.length);
      assert.equal(job!.created, room);
      const refused = Object.keys(job!.errors).map(Number);
      assert.deepEqual(
        refused,
        rows.slice(room).map(({ row }) => row),
      );
      assert.deepEqual(job!.errors[String(rows[room]!.row)], {
        form: [messageOf('plan_limit_reached')],
      });
      const [links] = await sql()<{ count: number; last: string }[]>`
      select count(*)::int as count, max(l.url) filter (where l.url like '%/' || ${String(
        room - 1,
      )}) as last
      from public.aliases a join public.long_urls l on l.id = a.long_url_id
      where a.account_id = ${account!.id}`;
      assert.equal(links!.count, room);
      assert.equal(links!.last, rows[room - 1]!.url);
    } finally {
      if (domainId) {
        await sql()`delete from public.bulk_jobs where domain_id = ${domainId}`;
      }
      await sql()`delete from auth.users where id = ${userId}`;
      if (domainId) {
        await sql()`delete from public.domains where id = ${domainId}`;
      }
      await closeSql();
    }
  },
);
