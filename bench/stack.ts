/**
 * Local stack benchmark: how long `stack:up` takes to serve (fresh and existing state), how long a
 * password login round trip takes through supabase-js, and what the gateway costs PostgREST: the
 * same single-row read straight to PostgREST, through the gateway, and through proxies that do
 * less (bench/support/floor-proxies.ts: a bare Node socket pipe, and HAProxy when installed: what
 * one proxy hop costs here, whatever runs it), in many short rounds, the order reversed every
 * round, each overhead the median of the rounds' (1 - proxied/direct throughput), beside the CPU
 * each part spends per request (the proxy's Node process, PostgREST, Postgres, the load
 * generator) and the share of a request's CPU the proxy adds (the steadier figure on a shared
 * machine). Prints its figures; it is not a timed test.
 *
 *   npm run bench:stack
 *   npm run bench:stack -- --rest                  only the REST figures (a stack without seed)
 *   npm run bench:stack -- --rest --against=<dir>  the same rounds also through the stack of
 *                                                  another checkout (its ports 100 higher), so
 *                                                  a change is judged against its base side by
 *                                                  side, under the same load
 *
 * BENCH_REST_ROUNDS (12) and BENCH_REST_SECONDS (2) set the rounds. Runs its own stack on ports
 * 63321/63322/63324 with state in .local/bench (wiped first; override with the STACK_* variables),
 * in a child process so that the load generator here does not share the gateway's event loop,
 * and stops it at the end. Load goes to 127.0.0.1 only, for a bounded time.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import autocannon from 'autocannon';
import pg from 'pg';
import ws from 'ws';
import { REPO_ROOT, loadConfig, type StackConfig } from '../supabase/local/src/config.ts';
import { postgrestPidFile } from '../supabase/local/src/postgrest.ts';
import type { StackEnv } from '../supabase/local/src/stack.ts';
import { PostgresCpu } from './postgres-cpu.ts';
import { startFloorProxies, type FloorProxy } from './support/floor-proxies.ts';
import { ownCpuNs, processCpuNs } from './support/process-cpu.ts';
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
const REST = {
  connections: 50,
  rounds: Number(process.env.BENCH_REST_ROUNDS || 12),
  roundSeconds: Number(process.env.BENCH_REST_SECONDS || 2),
  warmupSeconds: 2,
};
const REST_ONLY = process.argv.includes('--rest');
const AGAINST = process.argv
  .find((arg) => arg.startsWith('--against='))
  ?.slice('--against='.length);
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

/** A process group whose CPU a phase is charged with. */
type Part = 'gateway' | 'postgrest' | 'postgres' | 'load';
const PARTS: readonly { part: Part; title: string }[] = [
  { part: 'gateway', title: 'proxy (Node)' },
  { part: 'postgrest', title: 'PostgREST' },
  { part: 'postgres', title: 'Postgres' },
  { part: 'load', title: 'load generator' },
];

/** One stack the bench runs: this checkout's, or the one `--against` names. */
interface BenchStack {
  name: string;
  config: StackConfig;
  process: StackProcess;
}

/** One way to the same REST request, and what its rounds measured. */
interface RestTarget {
  stack: BenchStack;
  label: string;
  url: string;
  headers: Record<string, string>;
  /** The Node process between the load and PostgREST, if any (charged as 'gateway'). */
  proxyPid?: number;
  phases: PhaseFigures[];
}

interface PhaseFigures {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  failures: number;
  cpuNs: Record<Part, number>;
}

/** Starts a CPU reading of one stack's parts; calling what it returns gives the CPU since. */
type CpuMeter = () => () => Record<Part, number>;

async function cpuMeter(
  stack: BenchStack,
  db: pg.Client,
): Promise<(proxyPid?: number) => CpuMeter> {
  const postgres = await PostgresCpu.of(db);
  const postgrestPid = Number(fs.readFileSync(postgrestPidFile(stack.config), 'utf8'));
  return (proxyPid) => () => {
    const gateway = processCpuNs(proxyPid);
    const postgrest = processCpuNs(postgrestPid);
    const postgresStart = postgres.sample();
    // Last in, first out: reading /proc costs the bench, not the phase.
    const load = ownCpuNs();
    return () => ({
      load: ownCpuNs() - load,
      gateway: processCpuNs(proxyPid) - gateway,
      postgrest: processCpuNs(postgrestPid) - postgrest,
      postgres: postgres.since(postgresStart),
    });
  };
}

/** A table like the app's: RLS on, read by anon through a policy, one row fetched by key. */
async function createBenchTable(
  env: StackEnv,
): Promise<{ table: string; db: pg.Client; drop: () => Promise<void> }> {
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
    db,
    drop: async () => {
      await db.query(`drop table public.${table}; notify pgrst, 'reload schema'`);
      await db.end();
    },
  };
}

/**
 * The same single-row read, straight to PostgREST, through the gateway as supabase-js asks, and
 * through each floor proxy (the first is the one the others are compared with).
 */
function restTargets(
  stack: BenchStack,
  env: StackEnv,
  table: string,
  floors: FloorProxy[],
): RestTarget[] {
  const query = `/${table}?select=id,slug,target_url&slug=eq.slug-500`;
  // What supabase-js sends through the gateway, and what the gateway forwards to PostgREST.
  const viaGateway = {
    apikey: env.SUPABASE_ANON_KEY,
    authorization: `Bearer ${env.SUPABASE_ANON_KEY}`,
  };
  const direct = { authorization: `Bearer ${env.SUPABASE_ANON_KEY}` };
  return [
    {
      stack,
      label: 'PostgREST directly',
      url: `http://127.0.0.1:${stack.config.postgrestPort}${query}`,
      headers: direct,
      phases: [],
    },
    {
      stack,
      label: 'through the gateway',
      url: `${env.SUPABASE_URL}/rest/v1${query}`,
      headers: viaGateway,
      proxyPid: stack.process.child.pid,
      phases: [],
    },
    ...floors.map((floor) => ({
      stack,
      label: floor.label,
      url: `http://127.0.0.1:${floor.port}${query}`,
      headers: direct,
      proxyPid: floor.child.pid,
      phases: [],
    })),
  ];
}

async function checkTarget(target: RestTarget): Promise<void> {
  const check = await fetch(target.url, { headers: target.headers });
  const body = (await check.json()) as unknown;
  if (!check.ok || !Array.isArray(body) || body.length !== 1)
    throw new Error(
      `${target.url} did not return the one row: ${check.status} ${JSON.stringify(body)}`,
    );
}

async function loadPhase(
  target: RestTarget,
  seconds: number,
  meter?: CpuMeter,
): Promise<PhaseFigures> {
  const since = meter?.();
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: REST.connections,
    duration: seconds,
  });
  const cpuNs = since?.() ?? { gateway: 0, postgrest: 0, postgres: 0, load: 0 };
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuNs,
  };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const rate = (phase: PhaseFigures) => phase.requests / phase.seconds;

/**
 * Rounds of a few seconds each way, the order reversed every round (A B, B A, …): what else
 * loads the machine drifts over a run, and a round's two phases share the same moment of it. The
 * overhead is the median of the rounds' ratios, so a burst of other work spoils a round or two,
 * not the figure.
 */
async function benchRest(stacks: BenchStack[]): Promise<RestTarget[]> {
  const tables: { drop: () => Promise<void> }[] = [];
  const floors: FloorProxy[] = [];
  try {
    const targets: RestTarget[] = [];
    const meters = new Map<RestTarget, CpuMeter>();
    for (const stack of stacks) {
      const env = stackEnvOf(stack.config);
      const { table, db, drop } = await createBenchTable(env);
      tables.push({ drop });
      const meterOf = await cpuMeter(stack, db);
      // Clear of the stack's own ports (the gateway's + 0 to + 13).
      const stackFloors = await startFloorProxies(
        stack.config.gatewayPort + 30,
        stack.config.postgrestPort,
        stack.config.stateDir,
      );
      floors.push(...stackFloors);
      for (const target of restTargets(stack, env, table, stackFloors)) {
        await checkTarget(target);
        meters.set(target, meterOf(target.proxyPid));
        targets.push(target);
      }
    }
    for (const target of targets) await loadPhase(target, REST.warmupSeconds);
    for (let round = 0; round < REST.rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse())
        target.phases.push(await loadPhase(target, REST.roundSeconds, meters.get(target)));
    }
    return targets;
  } finally {
    for (const floor of floors) floor.child.kill();
    for (const table of tables) await table.drop();
  }
}

const thousands = (value: number) => Math.round(value).toLocaleString('en');

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Per part, the CPU one request of `target` cost, in µs. */
function cpuPerRequest(target: RestTarget): number[] {
  const requests = target.phases.reduce((total, phase) => total + phase.requests, 0);
  return PARTS.map(
    ({ part }) =>
      target.phases.reduce((total, phase) => total + phase.cpuNs[part], 0) / 1000 / requests,
  );
}

/** `proxied`'s overhead against `direct`, by rate and by CPU. */
function describeOverhead(direct: RestTarget, proxied: RestTarget, judged: boolean): string[] {
  const overheads = direct.phases
    .map((phase, round) => (1 - rate(proxied.phases[round]!) / rate(phase)) * 100)
    .sort((a, b) => a - b);
  const overhead = median(overheads);
  const proxiedCpu = sum(cpuPerRequest(proxied));
  const added = proxiedCpu - sum(cpuPerRequest(direct));
  const name = proxied.label.replace(/^through /, '');
  return [
    `    ${`overhead of ${name}`.padEnd(32)} ${overhead.toFixed(1).padStart(5)} %   median of ${overheads.length} rounds' (1 - proxied/direct), quartiles ${percentile(overheads, 0.25).toFixed(1)} .. ${percentile(overheads, 0.75).toFixed(1)} %${judged ? `; target < ${TARGETS.gatewayOverheadPercent} %: ${verdict(overhead < TARGETS.gatewayOverheadPercent)}` : ''}`,
    // The machine is CPU-bound under this load, so the CPU a request costs in all is what its
    // rate follows; steadier than the rate when other work comes and goes.
    `    ${`CPU ${name} adds`.padEnd(32)} ${added.toFixed(1).padStart(5)} µs  ${((added / proxiedCpu) * 100).toFixed(1)} % of a request's CPU through it (the overhead its rate would show on a machine doing nothing else)`,
  ];
}

function describeRest(targets: RestTarget[]): string[] {
  const lines: string[] = [];
  const stacks = new Set(targets.map((target) => target.stack));
  for (const stack of stacks) {
    const [direct, gateway, ...floors] = targets.filter((target) => target.stack === stack) as [
      RestTarget,
      RestTarget,
      ...RestTarget[],
    ];
    if (stacks.size > 1) lines.push(`  ${stack.name}:`);
    for (const target of [direct, gateway, ...floors]) {
      const failures = target.phases.reduce((total, phase) => total + phase.failures, 0);
      lines.push(
        `    ${target.label.padEnd(22)} ${thousands(median(target.phases.map(rate))).padStart(7)} req/s (median round)   latency p50 ${median(target.phases.map((p) => p.p50))} ms, p99 ${median(target.phases.map((p) => p.p99))} ms${failures > 0 ? `, ${failures} FAILED` : ''}`,
      );
    }
    lines.push(
      ...describeOverhead(direct, gateway, true),
      ...floors.flatMap((floor) => describeOverhead(direct, floor, false)),
    );
    lines.push(
      `    CPU per request, µs    ${PARTS.map(({ title }) => title.padStart(17)).join('')}${'all four'.padStart(10)}`,
    );
    for (const target of [direct, gateway, ...floors]) {
      const perRequest = cpuPerRequest(target);
      const total = sum(perRequest);
      lines.push(
        `      ${target.label.padEnd(20)} ${perRequest.map((value) => value.toFixed(1).padStart(17)).join('')}${total.toFixed(1).padStart(10)}`,
      );
    }
  }
  return lines;
}

/** The last commit of a checkout, and whether it has changes beside it. */
function describeCheckout(root: string): string {
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'])
    .toString()
    .trim();
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'])
    .toString()
    .trim();
  return `${path.relative(process.cwd(), root) || '.'} at ${commit}${dirty ? ' with changes' : ''}`;
}

/** The `--against` checkout's stack: the same variables, every port 100 higher. */
function againstStack(root: string): { env: Record<string, string>; config: StackConfig } {
  const shift = (name: 'STACK_GATEWAY_PORT' | 'STACK_DB_PORT' | 'STACK_MAIL_PORT') =>
    Number(BENCH_ENV[name]) + 100;
  const gatewayPort = shift('STACK_GATEWAY_PORT');
  const config = loadConfig({
    externalDatabaseUrl: undefined,
    stateDir: path.resolve(root, BENCH_ENV.STACK_STATE_DIR),
    gatewayPort,
    dbPort: shift('STACK_DB_PORT'),
    mailPort: shift('STACK_MAIL_PORT'),
    postgrestPort: gatewayPort + 10,
    functionsPort: gatewayPort + 11,
    dnsPort: gatewayPort + 12,
    postgrestAdminPort: gatewayPort + 13,
  });
  const env = {
    ...BENCH_ENV,
    STACK_SEED: 'false',
    STACK_GATEWAY_PORT: String(config.gatewayPort),
    STACK_DB_PORT: String(config.dbPort),
    STACK_MAIL_PORT: String(config.mailPort),
    STACK_POSTGREST_PORT: String(config.postgrestPort),
    STACK_FUNCTIONS_PORT: String(config.functionsPort),
    STACK_DNS_PORT: String(config.dnsPort),
    STACK_POSTGREST_ADMIN_PORT: String(config.postgrestAdminPort),
  };
  return { env, config };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main() {
  console.log(
    `Shortlane local stack benchmark: ${os.cpus().length} cores, Node ${process.version}, state ${path.relative(REPO_ROOT, config.stateDir)}`,
  );
  await stopLeftovers(BENCH_ENV);
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  const stacks: BenchStack[] = [];
  const self = (stack: StackProcess) =>
    stacks.push({ name: describeCheckout(REPO_ROOT), config, process: stack });
  try {
    if (REST_ONLY) {
      self((await startTimed(false)).stack);
    } else {
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
      self(warm.stack);
      console.log(
        `  warm start to healthy  ${warm.seconds.toFixed(2).padStart(7)} s       target < ${TARGETS.warmSeconds} s: ${verdict(warm.seconds < TARGETS.warmSeconds)}`,
      );
      const login = await benchLogin(stackEnvOf(config));
      console.log(
        login.ok
          ? `  password login         p50 ${login.p50.toFixed(1)} ms, p95 ${login.p95.toFixed(1)} ms (${login.rounds} signInWithPassword round trips)`
          : `  password login         NOT MEASURED: ${login.reason}`,
      );
    }
    if (AGAINST) {
      const root = path.resolve(AGAINST);
      const against = againstStack(root);
      await stopLeftovers(against.env, root);
      fs.rmSync(against.config.stateDir, { recursive: true, force: true });
      const stack = spawnStack(against.env, root);
      stacks.push({ name: describeCheckout(root), config: against.config, process: stack });
      await untilHealthy(stack, against.config, START_TIMEOUT_MS);
    }

    const loadBefore = loadAverage();
    const targets = await benchRest(stacks);
    console.log(
      [
        `  REST single-row GET, ${REST.connections} connections, ${REST.rounds} rounds of ${REST.roundSeconds} s each way, the order reversed every round (after ${REST.warmupSeconds} s warm-up each);`,
        `  load average ${loadBefore} before, ${loadAverage()} after (other processes share this machine):`,
        ...describeRest(targets),
      ].join('\n'),
    );
  } finally {
    for (const stack of stacks) await stopStack(stack.process);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
