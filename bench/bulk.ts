/**
 * Bulk import benchmark: a CSV (and one xlsx) of N rows uploaded to the bulk-import function
 * through the gateway, timed from the upload until the job is completed (links, tags, result CSV
 * and notification written), in a fresh stack of its own. Targets: 10,000 rows under 3 s
 * (issue 4), 100,000 rows under 10 s (issue 17).
 *
 * Beside each figure, in the same run: the raw set-based insert of as many links (one statement
 * into long_urls and aliases, as the database owner, rolled back), once with every trigger and
 * constraint (the floor any import of these tables stands on) and once bare (triggers and
 * foreign-key checks off), and the load average (1 min): the machine is shared, so compare the
 * ratios rather than the absolute figures.
 *
 *   npm run bench:bulk                  10,000 and 100,000 rows (csv), 10,000 rows (xlsx)
 *   BENCH_BULK_ROWS=5000,20000 npm run bench:bulk
 *
 * Ports 27321/27322/27324 and state dir .local/bench-bulk (override with STACK_* variables).
 * The machine is shared (2 cores): figures vary with what else runs; run it more than once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as XLSX from '@e965/xlsx';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { type CpuGroup, cpuReading } from './cpu.ts';
import { PostgresCpu } from './postgres-cpu.ts';

const TARGETS_MS: Record<number, number> = { 10_000: 3_000, 100_000: 10_000 };
const ROWS = (process.env.BENCH_BULK_ROWS ?? '10000,100000')
  .split(',')
  .map((value) => Number(value.trim()));
if (ROWS.some((count) => !Number.isInteger(count) || count < 1 || count > 100_000))
  throw new Error('BENCH_BULK_ROWS must list row counts between 1 and 100000');

const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const perSecond = (count: number, ms: number) =>
  `${Math.round(count / (ms / 1000)).toLocaleString('en')} rows/s`;

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function rows(count: number, run: string): string[][] {
  return Array.from({ length: count }, (_, index) => [
    `https://bench-${run}-${index % 5000}.example.com/articles/${index}?utm_source=bulk`,
    '',
    index % 10 === 0 ? 'bench,import' : '',
  ]);
}

const csvFile = (data: string[][]) =>
  new TextEncoder().encode(
    [
      'url,alias,tags',
      ...data.map((row) => row.map((cell) => (cell.includes(',') ? `"${cell}"` : cell)).join(',')),
    ].join('\r\n'),
  );

function xlsxFile(data: string[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([['url', 'alias', 'tags'], ...data]),
    'Links',
  );
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

/**
 * The same number of links written as one set-based statement (long_urls, then aliases), as
 * the database owner in a transaction rolled back: with triggers on, and with them off
 * (session_replication_role = replica also skips the foreign-key checks).
 */
async function rawInsertMs(db: pg.Pool, count: number, bare: boolean): Promise<number> {
  const client = await db.connect();
  try {
    await client.query('begin');
    if (bare) await client.query(`set local session_replication_role = replica`);
    const run = `raw${count}${bare ? 'b' : 't'}${Date.now().toString(36)}`;
    const started = performance.now();
    await client.query(
      `with owner as (
         select p.id as user_id, p.personal_account_id as account_id
         from public.profiles p order by p.created_at desc limit 1
       ), domain as (
         select d.id from public.domains d where d.domain = 'bench-bulk.localhost'
       ), urls as (
         insert into public.long_urls (account_id, url)
         select o.account_id,
           'https://' || $1 || '-' || (g % 5000) || '.example.com/articles/' || g || '?utm_source=bulk'
         from owner o, generate_series(1, $2::integer) as g
         returning id, account_id
       )
       insert into public.aliases (long_url_id, account_id, domain_id, alias, is_main, created_by)
       select u.id, u.account_id, d.id, $1 || row_number() over (), true, o.user_id
       from urls u, domain d, owner o`,
      [run, count],
    );
    const ms = performance.now() - started;
    await client.query('rollback');
    return ms;
  } finally {
    client.release();
  }
}

interface Context {
  cpuGroups: CpuGroup[];
  postgresCpu: PostgresCpu;
  url: string;
  anonKey: string;
  token: string;
  domain: string;
  db: pg.Pool;
}

async function importOnce(context: Context, file: Uint8Array, fileName: string) {
  const form = new FormData();
  form.set('file', new Blob([file.slice()]), fileName);
  form.set('domain', context.domain);
  const cpuBefore = cpuReading(context.cpuGroups);
  const postgresBefore = context.postgresCpu.sample();
  const started = performance.now();
  const response = await fetch(`${context.url}/functions/v1/bulk-import/bulk/csv`, {
    method: 'POST',
    headers: { apikey: context.anonKey, Authorization: `Bearer ${context.token}` },
    body: form,
  });
  const answer = (await response.json()) as { total?: number; job_id?: string; message?: string };
  const answeredMs = performance.now() - started;
  if (!response.ok || !answer.job_id) throw new Error(`upload refused: ${JSON.stringify(answer)}`);
  for (;;) {
    const { rows: jobs } = await context.db.query<{
      status: string;
      created: number;
      total: number;
    }>('select status, created, total from public.bulk_jobs where id = $1', [answer.job_id]);
    const job = jobs[0]!;
    if (job.status === 'completed' || job.status === 'failed') {
      const doneMs = performance.now() - started;
      const postgresNs = context.postgresCpu.since(postgresBefore);
      return {
        answeredMs,
        doneMs,
        cpu:
          `${cpuSpent(cpuBefore, cpuReading(context.cpuGroups))}, ` +
          `Postgres ${(postgresNs / 1e9).toFixed(2)} s = ` +
          `${Math.round(postgresNs / 1e3 / Math.max(1, job.total))} µs per row`,
        ...job,
      };
    }
    // Every 50 ms: finer polling would load the database whose time is measured.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** "name 1.23 s" per group: CPU seconds spent between two readings. */
const cpuSpent = (before: Map<string, number>, after: Map<string, number>) =>
  [...after]
    .map(([name, seconds]) => `${name} ${(seconds - (before.get(name) ?? 0)).toFixed(2)} s`)
    .join(', ');

async function main() {
  process.env.STACK_GATEWAY_PORT ??= '27321';
  process.env.STACK_DB_PORT ??= '27322';
  process.env.STACK_MAIL_PORT ??= '27324';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  const config = loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/bench-bulk'),
  });
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  log('starting a fresh stack…');
  const stack = await startStack(config, () => {});
  const db = new pg.Pool({ connectionString: stack.env.DB_URL, max: 2 });
  try {
    const auth = (route: string, key: string, body: object) =>
      fetch(`${stack.env.SUPABASE_URL}/auth/v1/${route}`, {
        method: 'POST',
        headers: {
          apikey: key,
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      }).then(async (response) => {
        if (!response.ok)
          throw new Error(`auth ${route}: ${response.status} ${await response.text()}`);
        return (await response.json()) as { id?: string; access_token?: string };
      });
    const email = `bench-${Date.now()}@bench.example.com`;
    const password = 'bench-password-1';
    const user = await auth('admin/users', stack.env.SUPABASE_SERVICE_ROLE_KEY, {
      email,
      password,
      email_confirm: true,
    });
    await db.query(
      `update public.accounts a set features = '{create_tiny_url,use_bulk,use_custom_alias,use_tags}'
       from public.profiles p where p.id = $1 and a.id = p.personal_account_id`,
      [user.id],
    );
    // Plan limits far above the benchmark, so that every row becomes a link and the limit and
    // credit checks still run (as they do for any customer with limits).
    await db.query(
      `insert into public.account_usage (account_id, name, "limit")
       select p.personal_account_id, option, 1000000000
       from public.profiles p, unnest(app.plan_count_options()) as option
       where p.id = $1`,
      [user.id],
    );
    const domain = 'bench-bulk.localhost';
    // Verified: links are created only on a domain the redirect serves (migration 6300).
    await db.query(
      `insert into public.domains (domain, kind, verification_status, verified_at)
       values ($1, 'common', 'verified', now())`,
      [domain],
    );
    const session = await auth('token?grant_type=password', stack.env.SUPABASE_ANON_KEY, {
      email,
      password,
    });
    // The gateway, Auth and Storage run in this process (beside the bench's own polling).
    const cpuGroups: CpuGroup[] = [
      { name: 'stack (Node)', matches: ({ pid }) => pid === process.pid },
      {
        name: 'bulk-import (Deno)',
        matches: ({ commandLine, parent }) =>
          parent === process.pid && commandLine.includes('functions/bulk-import/'),
      },
    ];
    const client = await db.connect();
    const postgresCpu = await PostgresCpu.of(client);
    client.release();
    const context: Context = {
      cpuGroups,
      postgresCpu,
      url: stack.env.SUPABASE_URL,
      anonKey: stack.env.SUPABASE_ANON_KEY,
      token: session.access_token!,
      domain,
      db,
    };

    // The function's first request boots its process: not part of any figure.
    await importOnce(context, csvFile(rows(10, 'warm')), 'warm.csv');

    const results: string[] = [];
    const runs: [number, 'csv' | 'xlsx'][] = [
      ...ROWS.map((count) => [count, 'csv'] as [number, 'csv']),
      [10_000, 'xlsx'],
    ];
    for (const [count, type] of runs) {
      const data = rows(count, `${type}${count}`);
      const file = type === 'csv' ? csvFile(data) : xlsxFile(data);
      const result = await importOnce(context, file, `bench.${type}`);
      const target = type === 'csv' ? TARGETS_MS[count] : undefined;
      const verdict =
        target === undefined
          ? ''
          : result.doneMs <= target
            ? ` (target < ${target / 1000} s: met)`
            : ` (target < ${target / 1000} s: MISSED)`;
      const rawMs = await rawInsertMs(db, count, false);
      const bareMs = await rawInsertMs(db, count, true);
      const line =
        `${count.toLocaleString('en')} rows ${type} (${(file.length / 1024 / 1024).toFixed(1)} MB): ` +
        `answered in ${result.answeredMs.toFixed(0)} ms, job ${result.status} with ${result.created}/${result.total} links ` +
        `in ${(result.doneMs / 1000).toFixed(2)} s = ${perSecond(count, result.doneMs)}${verdict} ` +
        `(CPU: ${result.cpu}); ` +
        `raw set-based insert ${perSecond(count, rawMs)} (bare ${perSecond(count, bareMs)}); ${load()}`;
      log(line);
      results.push(line);
    }
    console.log('\nbench:bulk');
    for (const line of results) console.log(`  ${line}`);
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
