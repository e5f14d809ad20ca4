/**
 * Local stack benchmark: how long `stack:up` takes to serve (fresh and existing state), how long a
 * password login round trip takes through supabase-js, and what the gateway costs PostgREST in
 * requests per second. Prints its figures; it is not a timed test.
 *
 *   npm run bench:stack
 *
 * Runs its own stack on ports 63321/63322/63324 with state in .local/bench (wiped first; override
 * with the STACK_* variables), in a child process so that the load generator here does not share
 * the gateway's event loop, and stops it at the end. Load goes to 127.0.0.1 only, for a bounded
 * time.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import autocannon from 'autocannon';
import pg from 'pg';
import ws from 'ws';
import { REPO_ROOT, loadConfig } from '../supabase/local/src/config.ts';
import type { StackEnv } from '../supabase/local/src/stack.ts';
import {
  spawnStack,
  stackEnvOf,
  stopLeftovers,
  stopStack,
  untilHealthy,
  type StackProcess,
} from './support/stack-process.ts';

const BENCH_ENV = {
  STACK_GATEWAY_PORT: process.env.STACK_GATEWAY_PORT || '63321',
  STACK_DB_PORT: process.env.STACK_DB_PORT || '63322',
  STACK_MAIL_PORT: process.env.STACK_MAIL_PORT || '63324',
  STACK_STATE_DIR: process.env.STACK_STATE_DIR || '.local/bench',
  STACK_WATCH_FUNCTIONS: 'false',
  // 40 sign-ins in a row from loopback would meet Auth's abuse limit (30, then 1 per 2 s): the
  // bench measures the round trip, not the limit.
  STACK_AUTH_RATE_LIMIT_BURST: '1000000',
};
const START_TIMEOUT_MS = 120_000;
const LOGIN_ROUNDS = 40;
const LOAD = { connections: 50, durationSeconds: 10, warmupSeconds: 2 };
const TARGETS = { coldSeconds: 10, warmSeconds: 5, gatewayOverheadPercent: 10 };

Object.assign(process.env, BENCH_ENV);
const config = loadConfig({ externalDatabaseUrl: undefined });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function verdict(ok: boolean): string {
  return ok ? 'within target' : 'OVER TARGET';
}

function percentile(sortedAscending: number[], fraction: number): number {
  if (sortedAscending.length === 0) throw new Error('percentile of no samples');
  const index = Math.min(
    sortedAscending.length - 1,
    Math.max(0, Math.ceil(fraction * sortedAscending.length) - 1),
  );
  return sortedAscending[index]!;
}

async function startTimed(seed = true): Promise<{ stack: StackProcess; seconds: number }> {
  const started = performance.now();
  const stack = spawnStack({ ...BENCH_ENV, STACK_SEED: String(seed) });
  await untilHealthy(stack, config, START_TIMEOUT_MS);
  return { stack, seconds: (performance.now() - started) / 1000 };
}

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  // Node 20 has no global WebSocket; ws's typing opens with an overload realtime-js rejects.
  realtime: { transport: ws as unknown as RealtimeTransport },
} satisfies SupabaseClientOptions<'public'>;

type LoginFigures =
  { ok: true; p50: number; p95: number; rounds: number } | { ok: false; reason: string };

async function benchLogin(env: StackEnv): Promise<LoginFigures> {
  const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, clientOptions);
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Bench-${randomBytes(8).toString('hex')}`;
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) {
    const status = created.error.status;
    return {
      ok: false,
      reason:
        status === 501
          ? '/auth/v1 is not implemented yet (501 Not implemented)'
          : `creating the user through the admin API failed: ${status ?? ''} ${created.error.message}`,
    };
  }
  const client = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, clientOptions);
  const samples: number[] = [];
  for (let round = -3; round < LOGIN_ROUNDS; round++) {
    const started = performance.now();
    const { error } = await client.auth.signInWithPassword({ email, password });
    const elapsed = performance.now() - started;
    if (error) return { ok: false, reason: `signInWithPassword failed: ${error.message}` };
    // The first rounds warm up connections and JIT; they are not counted.
    if (round >= 0) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return {
    ok: true,
    p50: percentile(samples, 0.5),
    p95: percentile(samples, 0.95),
    rounds: samples.length,
  };
}

/** A table like the app's: RLS on, read by anon through a policy, one row fetched by key. */
async function createBenchTable(
  env: StackEnv,
): Promise<{ table: string; drop: () => Promise<void> }> {
  const table = `bench_${randomBytes(4).toString('hex')}_items`;
  const db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  await db.query(`
    create table public.${table} (
      id bigint generated always as identity primary key,
      slug text not null unique,
      target_url text not null,
      created_at timestamptz not null default now()
    );
    alter table public.${table} enable row level security;
    grant select on public.${table} to anon;
    create policy "Anyone can read bench items" on public.${table} for select to anon using (true);
    insert into public.${table} (slug, target_url)
      select 'slug-' || n, 'https://example.com/' || n from generate_series(1, 1000) n;
    notify pgrst, 'reload schema';
  `);
  const probe = `${env.SUPABASE_URL}/rest/v1/${table}?select=id&limit=1`;
  const deadline = Date.now() + 20_000;
  while (!(await fetch(probe, { headers: { apikey: env.SUPABASE_ANON_KEY } })).ok) {
    if (Date.now() > deadline) throw new Error(`PostgREST did not pick up ${table}`);
    await sleep(50);
  }
  return {
    table,
    drop: async () => {
      await db.query(`drop table public.${table}; notify pgrst, 'reload schema'`);
      await db.end();
    },
  };
}

interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    headers,
    connections: LOAD.connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function benchRest(env: StackEnv): Promise<{ direct: LoadFigures; gateway: LoadFigures }> {
  const { table, drop } = await createBenchTable(env);
  try {
    const query = `/${table}?select=id,slug,target_url&slug=eq.slug-500`;
    const gatewayUrl = `${env.SUPABASE_URL}/rest/v1${query}`;
    const directUrl = `http://127.0.0.1:${config.postgrestPort}${query}`;
    // What supabase-js sends through the gateway, and what the gateway forwards to PostgREST.
    const gatewayHeaders = {
      apikey: env.SUPABASE_ANON_KEY,
      authorization: `Bearer ${env.SUPABASE_ANON_KEY}`,
    };
    const directHeaders = { authorization: `Bearer ${env.SUPABASE_ANON_KEY}` };
    for (const [url, headers] of [
      [directUrl, directHeaders],
      [gatewayUrl, gatewayHeaders],
    ] as const) {
      const check = await fetch(url, { headers });
      const body = (await check.json()) as unknown;
      if (!check.ok || !Array.isArray(body) || body.length !== 1) {
        throw new Error(
          `${url} did not return the one row: ${check.status} ${JSON.stringify(body)}`,
        );
      }
    }
    await load(directUrl, directHeaders, LOAD.warmupSeconds);
    const direct = await load(directUrl, directHeaders, LOAD.durationSeconds);
    await load(gatewayUrl, gatewayHeaders, LOAD.warmupSeconds);
    const gateway = await load(gatewayUrl, gatewayHeaders, LOAD.durationSeconds);
    return { direct, gateway };
  } finally {
    await drop();
  }
}

function describeLoad(name: string, figures: LoadFigures): string {
  const failures =
    figures.non2xx + figures.errors > 0
      ? `, ${figures.non2xx} non-2xx, ${figures.errors} errors`
      : '';
  return `  ${name.padEnd(22)} ${Math.round(figures.requestsPerSecond).toLocaleString('en').padStart(7)} req/s   latency p50 ${figures.p50} ms, p99 ${figures.p99} ms${failures}`;
}

async function main() {
  console.log(
    `Shortlane local stack benchmark: ${os.cpus().length} cores, Node ${process.version}, state ${path.relative(REPO_ROOT, config.stateDir)}`,
  );
  await stopLeftovers(BENCH_ENV);
  fs.rmSync(config.stateDir, { recursive: true, force: true });

  // Fresh state twice: without the demo seed (the stack's own cost), then as `npm start` does.
  const bare = await startTimed(false);
  await stopStack(bare.stack);
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  const cold = await startTimed(true);
  await stopStack(cold.stack);
  console.log(
    `  cold start to healthy  ${cold.seconds.toFixed(2).padStart(7)} s       target < ${TARGETS.coldSeconds} s: ${verdict(cold.seconds < TARGETS.coldSeconds)}`,
  );
  console.log(
    `    of which the seed    ${(cold.seconds - bare.seconds).toFixed(2).padStart(7)} s       (${bare.seconds.toFixed(2)} s with STACK_SEED=false)`,
  );

  const warm = await startTimed();
  console.log(
    `  warm start to healthy  ${warm.seconds.toFixed(2).padStart(7)} s       target < ${TARGETS.warmSeconds} s: ${verdict(warm.seconds < TARGETS.warmSeconds)}`,
  );
  try {
    const env = stackEnvOf(config);
    const login = await benchLogin(env);
    console.log(
      login.ok
        ? `  password login         p50 ${login.p50.toFixed(1)} ms, p95 ${login.p95.toFixed(1)} ms (${login.rounds} signInWithPassword round trips)`
        : `  password login         NOT MEASURED: ${login.reason}`,
    );

    console.log(
      `  REST single-row GET, ${LOAD.connections} connections, ${LOAD.durationSeconds} s each (after ${LOAD.warmupSeconds} s warm-up):`,
    );
    const { direct, gateway } = await benchRest(env);
    console.log(describeLoad('PostgREST directly', direct));
    console.log(describeLoad('through the gateway', gateway));
    const overhead = (1 - gateway.requestsPerSecond / direct.requestsPerSecond) * 100;
    console.log(
      `  gateway overhead       ${overhead.toFixed(1).padStart(7)} %       target < ${TARGETS.gatewayOverheadPercent} %: ${verdict(overhead < TARGETS.gatewayOverheadPercent)}`,
    );
  } finally {
    await stopStack(warm.stack);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
