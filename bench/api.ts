/**
 * Public API benchmark: the `api` edge function as customers call it, for an account holding
 * BENCH_API_LINKS links (1,000,000 by default, bench/link-data.ts) on a plan with the top
 * plan's limits and API credits (so every limit and credit check runs, as for a real customer):
 *   1. link creation: POST /v1/links with a fresh destination per request (random alias);
 *   2. listing: GET /v1/links?limit=50, the account's newest 50.
 * Each at a fixed arrival rate (BENCH_RATE, 200 req/s by default; open loop over 50 keep-alive
 * connections, latency counted from when a request was due: bench/load.ts), through the
 * gateway and straight to the function's Deno process (the difference is the stack's gateway
 * and functions router); then through the gateway closed-loop (50 connections as fast as they
 * go, autocannon) for the ceiling. Prints req/s, p50, p99 and the load average around each
 * phase (other work on the machine skews the figures: read them beside it). Targets: create
 * p99 < 50 ms and list p99 < 30 ms at 200 req/s. Not a timed test.
 *
 *   npm run bench:api             reuse the bench stack's data when it is already there
 *   npm run bench:api -- --fresh  wipe .local/bench-api and generate everything again
 *
 * A stack of its own without the demo seed (ports 63321/63322/63324, state dir .local/bench-api;
 * override with the STACK_* variables), with the per-token rate limit out of reach
 * (API_RATE_LIMIT); stopped at the end. BENCH_SECONDS sets each phase's length (10 s), after
 * BENCH_WARMUP_SECONDS (5 s) of unmeasured load per call and route.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { type CpuGroup, cpuPerRequest, cpuReading, pidOf } from './cpu.ts';
import { generateLinks } from './link-data.ts';
import { type LoadFigures, loadAverage, openLoop, type OpenLoopRequest } from './load.ts';

process.env.STACK_GATEWAY_PORT ??= '63321';
process.env.STACK_DB_PORT ??= '63322';
process.env.STACK_MAIL_PORT ??= '63324';
process.env.STACK_WATCH_FUNCTIONS = 'false';
// The stack hands its own environment to the functions: no 429s during the measurement.
process.env.API_RATE_LIMIT = '100000000/1h';

const CONNECTIONS = 50;
const SECONDS = positiveInt('BENCH_SECONDS', 10);
/** Unmeasured load before the first phase, so that no phase pays for the stack's warm-up. */
const WARMUP_SECONDS = positiveInt('BENCH_WARMUP_SECONDS', 5);
const RATE = positiveInt('BENCH_RATE', 200);
const LINKS = positiveInt('BENCH_API_LINKS', 1_000_000);
const DOMAIN = 'bench-api.localhost';
const TARGETS = { createP99Ms: 50, listP99Ms: 30 };
/** The top plan's count options (supabase/seeds/10_accounts.sql, Enterprise). */
const PLAN_OPTIONS = {
  max_redirects: 5_000_000,
  max_active_aliases: 5_000_000,
  max_api_credits: 5_000_000,
  max_trackable_clicks: 5_000_000,
  max_branded_aliases_per_month: 5_000_000,
  max_aliases_per_month: 5_000_000,
  max_aliases: 15_000_000,
};

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

function log(line: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** The account, its plan, domain and token, then its links; the token is kept in bench.token. */
async function seed(db: pg.Client): Promise<void> {
  const token = `slt_${randomBytes(24).toString('hex')}`;
  await db.query(`create schema bench; create table bench.token (secret text not null)`);
  // Separate statements: a trigger makes the profile, which one statement would not yet see.
  const user = await db.query<{ id: string }>(
    `insert into auth.users (id, instance_id, aud, role, email, email_confirmed_at, created_at,
       updated_at)
     values (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'authenticated',
       'authenticated', 'bench-api@example.test', now(), now(), now())
     returning id`,
  );
  const userId = user.rows[0]!.id;
  await db.query(
    `with account as (
       select p.personal_account_id as id from public.profiles p where p.id = $1
     ), plan as (
       insert into public.plans (name, "group", hidden) values ('bench-api', 'bench', true)
       returning id
     ), price as (
       insert into public.plan_prices (plan_id, interval, amount, features, options)
       select id, 'yearly', 1000, '{use_api,use_custom_alias,use_tags}', $4 from plan
       returning id, plan_id
     ), sub as (
       insert into public.subscriptions (account_id, plan_id, price_id, type, name, "group",
         billing_type, interval, amount, billing_status)
       select account.id, price.plan_id, price.id, 'default', 'bench-api', 'bench', 1,
         'yearly', 1000, 'active'
       from account, price
     )
     insert into public.api_tokens (account_id, created_by, name, token_hash, token_prefix,
       abilities)
     select account.id, $1, 'bench', $2, left($3, 10), '{links:read,links:write}'
     from account`,
    [userId, createHash('sha256').update(token).digest(), token, PLAN_OPTIONS],
  );
  const domain = await db.query<{ id: string }>(
    `insert into public.domains (domain, kind, verification_status, verified_at)
     values ($1, 'common', 'verified', now()) returning id`,
    [DOMAIN],
  );
  await db.query(
    `create table bench.accounts (n integer primary key, user_id uuid, account_id uuid)`,
  );
  await db.query(
    `insert into bench.accounts
     select 1, p.id, p.personal_account_id from public.profiles p where p.id = $1`,
    [userId],
  );
  await generateLinks(db, {
    links: LINKS,
    heavyLinks: LINKS,
    domainIds: [domain.rows[0]!.id],
    timed,
  });
  await db.query(`insert into bench.token (secret) values ($1)`, [token]);
}

interface Row {
  phase: string;
  figures: LoadFigures;
  targetMs?: number;
  /** CPU per request by part of the stack; Postgres's costliest statements, if loaded. */
  statements?: string[];
}

/**
 * pg_stat_statements, when the server loaded it; otherwise asks for it at the next start (the
 * bench's own state dir: the next run shows Postgres's share of each phase).
 */
async function statementStatistics(db: pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ loaded: boolean }>(
    `select 'pg_stat_statements' = any (string_to_array(current_setting('shared_preload_libraries'), ','))
       as loaded`,
  );
  if (rows[0]?.loaded) {
    await db.query('create extension if not exists pg_stat_statements');
    return true;
  }
  await db.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
  log('pg_stat_statements loads from the next run on (Postgres time per statement)');
  return false;
}

async function statementsSince(db: pg.Client, requests: number): Promise<string[]> {
  const { rows } = await db.query<{ query: string; calls: string; mean: number; total: number }>(
    `select left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query, calls,
       mean_exec_time as mean, total_exec_time as total
     from pg_stat_statements
     where query not like '%pg_stat_statements%'
     order by total_exec_time desc`,
  );
  const total = rows.reduce((sum, row) => sum + row.total, 0);
  return [
    `Postgres: ${(total / Math.max(requests, 1)).toFixed(2)} ms of statement time per request`,
    ...rows
      .slice(0, 5)
      .map(
        (row) =>
          `${row.mean.toFixed(3).padStart(8)} ms × ${String(row.calls).padStart(6)}  ${row.query}`,
      ),
  ];
}

function report(rows: Row[]) {
  console.log(
    `\n${'phase'.padEnd(44)} ${'req/s'.padStart(6)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'ok'.padStart(6)} ${'failed'.padStart(6)}  load before → after   target`,
  );
  for (const { phase, figures: f, targetMs, statements } of rows) {
    const verdict =
      targetMs === undefined
        ? ''
        : f.p99 < targetMs && f.failed === 0
          ? `p99 < ${targetMs} ms ok`
          : `p99 < ${targetMs} ms MISSED`;
    console.log(
      [
        phase.padEnd(44),
        f.rate.toFixed(0).padStart(6),
        `${f.p50.toFixed(1).padStart(5)} ms`,
        `${f.p99.toFixed(1).padStart(5)} ms`,
        `${f.max.toFixed(0).padStart(5)} ms`,
        String(f.ok).padStart(6),
        String(f.failed).padStart(6),
        ` ${f.loadBefore} → ${f.loadAfter}`,
        `  ${verdict}`,
      ].join(' '),
    );
    if (f.firstFailure) console.log(`    first failure: ${f.firstFailure}`);
    for (const line of statements ?? []) console.log(`    ${line}`);
  }
}

async function closedLoop(options: autocannon.Options): Promise<LoadFigures> {
  const loadBefore = loadAverage();
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  return {
    rate: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    loadBefore,
    loadAfter: loadAverage(),
  };
}

async function main() {
  const stateDir = path.join(REPO_ROOT, '.local', 'bench-api');
  if (process.argv.includes('--fresh')) fs.rmSync(stateDir, { recursive: true, force: true });
  const config = loadConfig({ stateDir, seed: false });
  let functionPort: number | undefined;
  const stack = await timed('stack up', () =>
    startStack(config, (line) => {
      const served = /functions\/api: serving on :(\d+)/.exec(line);
      if (served) functionPort = Number(served[1]);
    }),
  );
  const db = new pg.Client({ connectionString: stack.env.DB_URL });
  await db.connect();
  const rows: Row[] = [];
  try {
    const ready = await db.query(`select to_regclass('bench.token') is not null as ready`);
    if (ready.rows[0]?.ready) log('reusing the generated data (pass --fresh to generate it again)');
    else await timed('generation, in all', () => seed(db));
    const { rows: found } = await db.query<{ secret: string; links: string }>(
      `select t.secret, (select count(*) from public.aliases a
         where a.account_id = (select account_id from bench.accounts where n = 1)) as links
       from bench.token t`,
    );
    const token = found[0]?.secret;
    if (!token) throw new Error('The bench data is incomplete: run with --fresh');
    log(`the token's account holds ${found[0]?.links} links`);
    const statistics = await statementStatistics(db);

    const gateway = stack.env.SUPABASE_URL;
    const linksPath = '/functions/v1/api/v1/links';
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // One call first: a refusal (token, plan, domain) would make the figures meaningless. It
    // also starts the function's process, whose port the stack's log line gave.
    const probe = await fetch(`${gateway}${linksPath}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'https://example.com/probe', domain: DOMAIN }),
    });
    if (probe.status !== 201) throw new Error(`probe: ${probe.status} ${await probe.text()}`);
    if (functionPort === undefined) throw new Error('The stack did not say where api serves');
    const direct = `http://127.0.0.1:${functionPort}`;
    // The gateway and the functions router run in this process, beside the load generator:
    // the phases straight to the function tell the generator's share apart.
    const postmaster = pidOf(`${stateDir}/db`);
    const cpuGroups: CpuGroup[] = [
      { name: 'bench+gateway+router', matches: ({ pid }) => pid === process.pid },
      {
        name: 'api (Deno)',
        matches: ({ commandLine, parent }) =>
          parent === process.pid && commandLine.includes('functions/api/'),
      },
      {
        name: 'Postgres',
        matches: ({ pid, parent }) => pid === postmaster || parent === postmaster,
      },
    ];
    // The function's own routes start at /api (the router strips /functions/v1).
    const directPath = '/api/v1/links';

    let counter = 0;
    const createRequest = (requestPath: string) => (): OpenLoopRequest => ({
      method: 'POST',
      path: requestPath,
      headers,
      body: JSON.stringify({
        url: `https://example.com/bench/${Date.now()}-${++counter}`,
        domain: DOMAIN,
      }),
    });
    const listRequest = (requestPath: string) => (): OpenLoopRequest => ({
      method: 'GET',
      path: `${requestPath}?limit=50`,
      headers: { authorization: headers.authorization },
    });
    const fixed = async (
      phase: string,
      origin: string,
      next: () => OpenLoopRequest,
      okStatus: number,
      targetMs: number,
    ) => {
      log(`${phase}…`);
      if (statistics) await db.query('select pg_stat_statements_reset()');
      const cpuBefore = cpuReading(cpuGroups);
      const figures = await openLoop({
        origin,
        rate: RATE,
        seconds: SECONDS,
        connections: CONNECTIONS,
        next,
        okStatus,
      });
      const requests = figures.ok + figures.failed;
      const statements = [
        `CPU per request: ${cpuPerRequest(cpuBefore, cpuReading(cpuGroups), requests)}`,
        ...(statistics ? await statementsSince(db, requests) : []),
      ];
      rows.push({ phase, figures, targetMs, statements });
    };

    // The function's JIT, its connection pool and Postgres's plan caches are cold right after
    // the stack starts: warm both routes and both calls at the phases' rate, then measure.
    log(`warming up (${WARMUP_SECONDS} s per call and route, not measured)…`);
    for (const [origin, requestPath] of [
      [gateway, linksPath],
      [direct, directPath],
    ] as const) {
      for (const [next, okStatus] of [
        [createRequest(requestPath), 201],
        [listRequest(requestPath), 200],
      ] as const) {
        await openLoop({
          origin,
          rate: RATE,
          seconds: WARMUP_SECONDS,
          connections: CONNECTIONS,
          next,
          okStatus,
        });
      }
    }

    await fixed(
      `create, ${RATE}/s, gateway`,
      gateway,
      createRequest(linksPath),
      201,
      TARGETS.createP99Ms,
    );
    await fixed(
      `create, ${RATE}/s, function directly`,
      direct,
      createRequest(directPath),
      201,
      TARGETS.createP99Ms,
    );
    await fixed(
      `list 50, ${RATE}/s, gateway`,
      gateway,
      listRequest(linksPath),
      200,
      TARGETS.listP99Ms,
    );
    await fixed(
      `list 50, ${RATE}/s, function directly`,
      direct,
      listRequest(directPath),
      200,
      TARGETS.listP99Ms,
    );
    log(`create, closed loop (${CONNECTIONS} connections)…`);
    rows.push({
      phase: `create, ${CONNECTIONS} conns closed loop, gateway`,
      figures: await closedLoop({
        url: `${gateway}${linksPath}`,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                url: `https://example.com/closed/${++counter}`,
                domain: DOMAIN,
              }),
            }),
          },
        ],
      }),
    });
    log(`list, closed loop (${CONNECTIONS} connections)…`);
    rows.push({
      phase: `list 50, ${CONNECTIONS} conns closed loop, gateway`,
      figures: await closedLoop({
        url: `${gateway}${linksPath}?limit=50`,
        headers: { authorization: headers.authorization },
      }),
    });
    console.log(`\nPublic API, ${os.cpus().length} CPUs, account with ${found[0]?.links} links:`);
    report(rows);
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
