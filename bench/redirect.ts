/**
 * Redirect benchmark: the `r` edge function served directly by Deno on a loopback port (no
 * gateway), and the visitor's path through the stack (the gateway's port with the short domain's
 * Host, as a browser reaches a short link locally), loaded with autocannon (50 connections, 20 s
 * per phase), beside bare servers answering a static 302 in the same run:
 *   1. the bare Deno and bare Node 302 servers (the ceiling for this machine);
 *   2. the visitor's path, 1,000 hot links, flat out (target >= 40% of the bare Node server);
 *   3. the visitor's path at a steady 2,000 req/s (target p99 < 10 ms), beside the bare Node
 *      server at the same rate (the latency floor of the machine as loaded then);
 *   4. r reached directly, the same hot links, every click recorded (target >= 25,000 req/s,
 *      p99 < 10 ms);
 *   5. 1,000 hot links with three redirect routes each (country, device, language) that no
 *      visitor of the load matches, so every rule is evaluated on every request (the
 *      evaluation must cost no database round trip: compare with phase 4);
 *   6. all-distinct aliases, i.e. link-cache misses (target >= 8,000 req/s);
 * and after each `r` phase, the clicks recorded against the redirects served (they must match)
 * and the CPU all Postgres processes spent per click recorded, from the phase's start until its
 * clicks are written (bench/postgres-cpu.ts: mostly app.record_clicks, plus the link lookups,
 * the WAL writer, autovacuum…). Prints its figures; it is not a timed test.
 *
 *   npm run bench:redirect
 *   npm run bench:redirect -- --visitor   only the visitor's path and the bare Node server, in turn
 *                                         (BENCH_VISITOR_ROUNDS rounds, default 2): a quick check
 *   npm run bench:redirect -- --compare   only app.record_clicks: the releases before migrations
 *                                         20261122003400 and 20261122006900 beside the current one
 *                                         (bench/click-ingest.ts)
 *
 * Starts a stack of its own without the demo seed, in a child process as `stack:up` runs (ports
 * 62321/62322/62324 and state dir .local/bench-redirect, wiped first; override with the STACK_*
 * variables), adds one account, one domain and the links set-based, and stops everything at the
 * end. Load goes to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { denoExecutable, NO_DOWNLOADS } from '../supabase/local/src/functions/deno.ts';
import {
  spawnStack,
  stackEnvOf,
  stopLeftovers,
  stopStack,
  untilHealthy,
} from './support/stack-process.ts';
import { compareClickIngest } from './click-ingest.ts';
import { PostgresCpu } from './postgres-cpu.ts';
import { processCpuNs } from './support/process-cpu.ts';

const STACK_ENV = {
  STACK_GATEWAY_PORT: process.env.STACK_GATEWAY_PORT || '62321',
  STACK_DB_PORT: process.env.STACK_DB_PORT || '62322',
  STACK_MAIL_PORT: process.env.STACK_MAIL_PORT || '62324',
  STACK_STATE_DIR: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR || '.local/bench-redirect'),
  STACK_WATCH_FUNCTIONS: 'false',
  STACK_SEED: 'false',
  // The load names its visitors in X-Forwarded-For, as a CDN in front of the gateway would.
  STACK_TRUSTED_PROXIES: '127.0.0.1',
};
Object.assign(process.env, STACK_ENV);

const LOAD = {
  connections: 50,
  durationSeconds: positiveInt('BENCH_SECONDS', 20),
  warmupSeconds: 3,
};
const HOT_LINKS = 1_000;
/** More than the link cache holds (10,000), cycled: every request is a miss. */
const COLD_LINKS = positiveInt('BENCH_COLD_LINKS', 200_000);
const DOMAIN = 'bench.localhost';
const TARGETS = {
  hotRequestsPerSecond: 25_000,
  hotP99Ms: 10,
  coldRequestsPerSecond: 8_000,
  /** The visitor's path against the bare Node server, flat out. */
  visitorShareOfBare: 0.4,
  /** The visitor's path at STEADY_RATE req/s. */
  steadyP99Ms: 10,
};
const STEADY_RATE = 2_000;
const START_TIMEOUT_MS = 120_000;
const COMPARE = process.argv.includes('--compare');
/** Only the visitor's path beside the bare Node server, alternately, `VISITOR_ROUNDS` times each. */
const VISITOR_ONLY = process.argv.includes('--visitor');
const VISITOR_ROUNDS = positiveInt('BENCH_VISITOR_ROUNDS', 2);
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
];

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

// --- Data -------------------------------------------------------------------------------------

async function createLinks(db: pg.Client): Promise<void> {
  const userId = '00000000-0000-4000-8000-00000000be01';
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', 'bench@redirect.test', now(), now(), now())`,
    [userId],
  );
  await db.query(
    `insert into public.domains (domain, kind, verification_status, verified_at, redirect_status)
     values ($1, 'common', 'verified', now(), 302)`,
    [DOMAIN],
  );
  // Hot links h0…h999, routed hot links rh0…rh999 and cold links c0…: one long URL each, one
  // statement per kind.
  for (const [prefix, count] of [
    ['h', HOT_LINKS],
    ['rh', HOT_LINKS],
    ['c', COLD_LINKS],
  ] as const) {
    await db.query(
      `with account as (select personal_account_id as id from public.profiles where id = $1),
       urls as (
         insert into public.long_urls (account_id, url)
         select account.id, 'https://example.com/' || $2 || '/' || g || '?utm_source=bench'
         from account, generate_series(0, $3 - 1) as g
         returning id, url
       )
       insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
       select u.id, account.id, d.id, $2 || substring(u.url from '/([0-9]+)\\?'), $1
       from urls u, account, public.domains d
       where d.domain = $4`,
      [userId, prefix, count, DOMAIN],
    );
  }
  // On a plan whose monthly redirects and trackable clicks the load cannot use up (the free
  // plan's 1,000 would turn the rest of the load into "limit reached" pages).
  await db.query(
    `insert into public.subscriptions (account_id, plan_id, price_id, name, interval)
     select pr.personal_account_id, p.id, pp.id, p.name, pp.interval
     from public.profiles pr, public.plans p join public.plan_prices pp on pp.plan_id = p.id
     where pr.id = $1 and p.name = 'enterprise' and pp.interval = 'monthly'`,
    [userId],
  );
  // The load comes from British addresses on desktops and phones without Accept-Language.
  await db.query(
    `insert into public.alias_routes (alias_id, account_id, position, url)
     select a.id, a.account_id, p, 'https://example.org/route/' || p
     from public.aliases a, generate_series(0, 2) as p
     where a.alias like 'rh%'`,
  );
  await db.query(
    `insert into public.alias_route_rules (route_id, account_id, position, value_id,
       condition_id, operation_id, operands)
     select r.id, r.account_id, 0, v.value_id, 'if', v.operation_id, v.operands
     from public.alias_routes r
     join (values (0, 'country', 'in', '{DE,AT}'::text[]), (1, 'device', 'equals', '{tablet}'),
       (2, 'language', 'equals', '{fr}')) as v(position, value_id, operation_id, operands)
       on v.position = r.position`,
  );
}

async function clicksRecorded(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>('select count(*) as n from public.clicks');
  return Number(rows[0]?.n ?? 0);
}

/**
 * The click count once the function's buffer has drained: at least `expected` and unchanged for
 * a second, or unchanged for 5 s (a failed write is retried with a growing delay, so a shorter
 * pause proves nothing).
 */
async function settledClicks(db: pg.Client, expected = 0): Promise<number> {
  let current = await clicksRecorded(db);
  let unchangedSince = Date.now();
  for (;;) {
    const quiet = Date.now() - unchangedSince;
    if (quiet >= 5_000 || (current >= expected && quiet >= 1_000)) return current;
    await sleep(250);
    const next = await clicksRecorded(db);
    if (next !== current) unchangedSince = Date.now();
    current = next;
  }
}

// --- Servers ----------------------------------------------------------------------------------

interface Served {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** A Deno process serving on an ephemeral loopback port; resolves once it listens. */
function serveWithDeno(args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(denoExecutable(), args, {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return served(child);
}

/** Resolves once `child` prints the address it listens on. */
function served(child: ChildProcess): Promise<Served> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port), output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`deno ended (${code}) before serving:\n${output}`)),
    );
  });
}

function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => served.child.kill('SIGKILL'), 10_000);
    served.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // SIGTERM: the function writes its buffered clicks before it ends.
    served.child.kill('SIGTERM');
  });
}

const BARE_NODE_302 = `require('node:http')
  .createServer((req, res) => {
    res.writeHead(302, { Location: 'https://example.com/', 'Cache-Control': 'no-store' });
    res.end();
  })
  .listen(0, '127.0.0.1', function () {
    console.log('Listening on http://127.0.0.1:' + this.address().port + '/');
  });`;

/** A Node process running `script`; resolves once it listens. */
function serveWithNode(script: string): Promise<Served> {
  return served(spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] }));
}

const BARE_302 = `Deno.serve({ hostname: '127.0.0.1', port: 0 }, () =>
  new Response(null, { status: 302, headers: { Location: 'https://example.com/', 'Cache-Control': 'no-store' } }));`;

// --- Load -------------------------------------------------------------------------------------

interface Figures {
  /** Requests built but not answered when the run stopped (at most one per connection). */
  inFlight: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  redirects: number;
  other: number;
  errors: number;
}

/**
 * 50 connections for `seconds`; `pathFor(n)` gives the n-th request's path. With `rate`, the
 * connections together send that many requests per second (the latency of a steady load),
 * otherwise as many as are answered.
 */
async function load(
  port: number,
  seconds: number,
  pathFor: (n: number) => string,
  rate?: number,
): Promise<Figures> {
  // n counts the requests built (each connection builds its next one when the answer comes).
  let n = 0;
  let answered = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: LOAD.connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    setupClient: (client) => {
      client.on('response', () => answered++);
    },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const i = n++;
          return {
            ...request,
            path: pathFor(i),
            headers: {
              host: DOMAIN,
              'user-agent': USER_AGENTS[i % USER_AGENTS.length]!,
              'x-forwarded-for': `81.2.69.${i % 250}`,
            },
          };
        },
      },
    ],
  });
  return {
    inFlight: n - answered,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    redirects: result['3xx'],
    other: result['1xx'] + result['2xx'] + result['4xx'] + result['5xx'],
    errors: result.errors + result.timeouts,
  };
}

const share = (figures: Figures, of: Figures) => figures.requestsPerSecond / of.requestsPerSecond;

function describe(label: string, figures: Figures, bare?: Figures, bareName = 'bare Deno'): string {
  const ratio = bare ? ` (${(share(figures, bare) * 100).toFixed(0)}% of ${bareName})` : '';
  return `${label.padEnd(28)} ${thousands(figures.requestsPerSecond).padStart(7)} req/s${ratio}, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${thousands(figures.redirects)} redirects, ${figures.other} other answers, ${figures.errors} errors`;
}

/**
 * autocannon stops a timed run by closing its sockets: the requests then in flight reached the
 * function (which served them and recorded their clicks) but their answers were never read. So
 * the redirects served are the answered ones plus up to those in flight.
 */
function accounted(clicks: number, figures: Figures): boolean {
  return clicks >= figures.redirects && clicks <= figures.redirects + figures.inFlight;
}

function accounting(clicks: number, figures: Figures): string {
  const served = `${thousands(figures.redirects)} answered + ${figures.inFlight} in flight when the load stopped`;
  return `clicks recorded ${thousands(clicks)}, redirects served ${served}: ${accounted(clicks, figures) ? `every redirect recorded (${clicks - figures.redirects} of the in-flight ones were served)` : 'MISMATCH'}`;
}

/** Postgres CPU (all its processes) per click recorded over a phase, in µs. */
function postgresPerClick(cpuNs: number, clicks: number): string {
  return `Postgres ${clicks > 0 ? (cpuNs / 1000 / clicks).toFixed(1) : '-'} µs CPU per click`;
}

/** The stack's `r` process: a child of the stack's own process running r's index.ts. */
function functionPid(stackPid: number | undefined, name: string): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== stackPid) continue;
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (args.includes(`/functions/${name}/index.ts`)) return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

/** µs of CPU per redirect of each process on the visitor's path over one phase. */
function pathCpu(
  stackPid: number | undefined,
  rPid: number | undefined,
  pgCpu: PostgresCpu,
): () => (redirects: number) => string {
  return () => {
    const gateway = processCpuNs(stackPid);
    const r = processCpuNs(rPid);
    const postgres = pgCpu.sample();
    return (redirects) => {
      const per = (ns: number) => (redirects > 0 ? (ns / 1000 / redirects).toFixed(1) : '-');
      return `CPU per redirect: stack's Node (gateway) ${per(processCpuNs(stackPid) - gateway)} µs, r ${per(processCpuNs(rPid) - r)} µs, Postgres ${per(pgCpu.since(postgres))} µs`;
    };
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

/**
 * `--visitor`: the bare Node server and the visitor's path in turn, each round a warm-up and a
 * phase of each, for a quick comparison of two checkouts on a shared machine (the ratio of each
 * round is taken within a minute of its yardstick).
 */
async function visitorRounds(
  gateway: number,
  barePort: number,
  stackPid: number | undefined,
  pgCpu: PostgresCpu,
  db: pg.Client,
): Promise<void> {
  const visitorPath = (n: number) => `/h${n % HOT_LINKS}`;
  const lines: string[] = [];
  let lost = false;
  for (let round = 1; round <= VISITOR_ROUNDS; round++) {
    await load(barePort, LOAD.warmupSeconds, () => '/');
    const bareFigures = await load(barePort, LOAD.durationSeconds, () => '/');
    await load(gateway, LOAD.warmupSeconds, visitorPath);
    const before = await settledClicks(db);
    const cpu = pathCpu(stackPid, functionPid(stackPid, 'r'), pgCpu)();
    const visitor = await load(gateway, LOAD.durationSeconds, visitorPath);
    const clicks = (await settledClicks(db, before + visitor.redirects)) - before;
    lost ||= !accounted(clicks, visitor);
    lines.push(
      `round ${round} (load average ${loadAverage()})`,
      describe('  bare Node static 302', bareFigures),
      describe("  visitor's path, hot links", visitor, bareFigures, 'bare Node'),
      `    ${accounting(clicks, visitor)}`,
      `    ${cpu(visitor.redirects)}`,
    );
    log(lines.slice(-5).join('\n'));
  }
  console.log(['', `Visitor's path (${os.cpus().length} cores)`, ...lines, ''].join('\n'));
  if (lost) process.exitCode = 1;
}

// --- Main -------------------------------------------------------------------------------------

async function main() {
  const config = loadConfig({ externalDatabaseUrl: undefined });
  await stopLeftovers(STACK_ENV);
  fs.rmSync(config.stateDir, { recursive: true, force: true });
  log(`starting a stack (no seed) on :${config.gatewayPort}, database :${config.dbPort}`);
  const stack = spawnStack(STACK_ENV);
  let db: pg.Client | undefined;
  let bare: Served | undefined;
  let bareNode: Served | undefined;
  let redirector: Served | undefined;
  try {
    await untilHealthy(stack, config, START_TIMEOUT_MS);
    const stackEnv = stackEnvOf(config);
    db = new pg.Client({ connectionString: stackEnv.DB_URL });
    await db.connect();
    log(`creating ${thousands(HOT_LINKS)} hot and ${thousands(COLD_LINKS)} cold links`);
    await createLinks(db);
    if (COMPARE) {
      const { rows } = await db.query<{ id: string }>(
        `select id from public.aliases where alias ~ '^h[0-9]+$' order by alias`,
      );
      log('app.record_clicks of three releases, the same batches through each');
      const lines = await compareClickIngest(
        db,
        DOMAIN,
        rows.map((row) => row.id),
      );
      console.log(
        [
          '',
          `Click ingest, Postgres CPU per click (${os.cpus().length} cores, load average ${loadAverage()}; other processes share this machine)`,
          ...lines,
          '',
        ].join('\n'),
      );
      return;
    }
    const pgCpu = await PostgresCpu.of(db);

    if (VISITOR_ONLY) {
      bareNode = await serveWithNode(BARE_NODE_302);
      await visitorRounds(config.gatewayPort, bareNode.port, stack.child.pid, pgCpu, db);
      return;
    }
    bare = await serveWithDeno(['eval', BARE_302], {});
    bareNode = await serveWithNode(BARE_NODE_302);
    redirector = await serveWithDeno(
      [
        'run',
        ...NO_DOWNLOADS,
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-sys',
        '--config',
        path.join(REPO_ROOT, 'supabase/functions/deno.json'),
        path.join(REPO_ROOT, 'supabase/functions/r/index.ts'),
      ],
      {
        DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0',
        SUPABASE_DB_URL: stackEnv.DB_URL,
        SUPABASE_URL: stackEnv.SUPABASE_URL,
        CLICK_IP_SALT: 'bench-redirect-click-ip-salt',
      },
    );
    const rPort = redirector.port;
    log(
      `bare Deno 302 on :${bare.port}, r on :${rPort}; ${LOAD.connections} connections, ${LOAD.durationSeconds} s per phase`,
    );

    await load(bare.port, LOAD.warmupSeconds, () => '/');
    const bareFigures = await load(bare.port, LOAD.durationSeconds, () => '/');
    log(describe('bare Deno static 302', bareFigures));
    await load(bareNode.port, LOAD.warmupSeconds, () => '/');
    const bareNodeFigures = await load(bareNode.port, LOAD.durationSeconds, () => '/');
    log(describe('bare Node static 302', bareNodeFigures));
    // The latency floor of a steady load on this machine now: the p99 target's yardstick.
    const bareSteady = await load(bareNode.port, LOAD.durationSeconds, () => '/', STEADY_RATE);
    log(describe(`bare Node, ${thousands(STEADY_RATE)}/s`, bareSteady));

    // The visitor's path: the stack's own gateway and r function, as a browser reaches them;
    // right after the bare servers it is measured against, before the phases below leave
    // Postgres busy with their clicks (vacuum, analyze) and skew what follows them.
    const gateway = config.gatewayPort;
    const visitorPath = (n: number) => `/h${n % HOT_LINKS}`;
    await load(gateway, LOAD.warmupSeconds, visitorPath);
    const beforeVisitor = await settledClicks(db);
    // The stack's r process, booted by the warm-up (CPU per redirect: less sensitive than req/s
    // to the machine's other load).
    const visitorCpu = pathCpu(stack.child.pid, functionPid(stack.child.pid, 'r'), pgCpu);
    const visitorStart = visitorCpu();
    const visitor = await load(gateway, LOAD.durationSeconds, visitorPath);
    log(describe("visitor's path, hot links", visitor, bareNodeFigures, 'bare Node'));
    const visitorClicks =
      (await settledClicks(db, beforeVisitor + visitor.redirects)) - beforeVisitor;
    const visitorCosts = visitorStart(visitor.redirects);
    log(`  ${accounting(visitorClicks, visitor)}`);
    log(`  ${visitorCosts}`);
    const beforeSteady = await settledClicks(db);
    const steadyStart = visitorCpu();
    const steady = await load(gateway, LOAD.durationSeconds, visitorPath, STEADY_RATE);
    log(describe(`visitor's path, ${thousands(STEADY_RATE)}/s`, steady));
    const steadyClicks = (await settledClicks(db, beforeSteady + steady.redirects)) - beforeSteady;
    const steadyCosts = steadyStart(steady.redirects);
    log(`  ${accounting(steadyClicks, steady)}`);
    log(`  ${steadyCosts}`);

    // Hot links: warm the cache (and JIT) first; its clicks are counted before the phase.
    await load(rPort, LOAD.warmupSeconds, (n) => `/r/h${n % HOT_LINKS}`);
    const beforeHot = await settledClicks(db);
    const hotCpu = pgCpu.sample();
    const hot = await load(rPort, LOAD.durationSeconds, (n) => `/r/h${n % HOT_LINKS}`);
    log(describe('r, 1,000 hot links', hot, bareFigures));
    const hotClicks = (await settledClicks(db, beforeHot + hot.redirects)) - beforeHot;
    const hotPg = postgresPerClick(pgCpu.since(hotCpu), hotClicks);
    log(`  ${accounting(hotClicks, hot)}; ${hotPg}`);

    await load(rPort, LOAD.warmupSeconds, (n) => `/r/rh${n % HOT_LINKS}`);
    const beforeRouted = await settledClicks(db);
    const routedCpu = pgCpu.sample();
    const routed = await load(rPort, LOAD.durationSeconds, (n) => `/r/rh${n % HOT_LINKS}`);
    log(describe('r, 1,000 routed hot links', routed, bareFigures));
    const routedClicks = (await settledClicks(db, beforeRouted + routed.redirects)) - beforeRouted;
    const routedPg = postgresPerClick(pgCpu.since(routedCpu), routedClicks);
    log(`  ${accounting(routedClicks, routed)}; ${routedPg}`);
    const beforeCold = await settledClicks(db);
    const coldCpu = pgCpu.sample();
    const cold = await load(rPort, LOAD.durationSeconds, (n) => `/r/c${n % COLD_LINKS}`);
    log(describe('r, distinct aliases (misses)', cold, bareFigures));
    const coldClicks = (await settledClicks(db, beforeCold + cold.redirects)) - beforeCold;
    const coldPg = postgresPerClick(pgCpu.since(coldCpu), coldClicks);
    log(`  ${accounting(coldClicks, cold)}; ${coldPg} (link lookups included)`);
    if (cold.redirects > COLD_LINKS)
      log(
        `  (more requests than cold links: aliases repeated after ${thousands(COLD_LINKS)}, each long out of the 10,000-entry cache)`,
      );

    const verdict = (ok: boolean) => (ok ? 'within target' : 'BELOW TARGET');
    console.log(
      [
        '',
        `Redirect benchmark (${os.cpus().length} cores, load average ${loadAverage()}; other processes share this machine)`,
        describe('  bare Deno static 302', bareFigures),
        describe('  bare Node static 302', bareNodeFigures),
        describe('  r, 1,000 hot links', hot, bareFigures),
        `    target >= ${thousands(TARGETS.hotRequestsPerSecond)} req/s and p99 < ${TARGETS.hotP99Ms} ms: ${verdict(hot.requestsPerSecond >= TARGETS.hotRequestsPerSecond && hot.p99 < TARGETS.hotP99Ms)}`,
        `    ${accounting(hotClicks, hot)}`,
        `    ${hotPg}`,
        describe('  r, distinct aliases', cold, bareFigures),
        `    target >= ${thousands(TARGETS.coldRequestsPerSecond)} req/s: ${verdict(cold.requestsPerSecond >= TARGETS.coldRequestsPerSecond)}`,
        `    ${accounting(coldClicks, cold)}`,
        `    ${coldPg} (the link lookups of the misses included)`,
        describe('  r, routed hot links', routed, bareFigures),
        `    ${((routed.requestsPerSecond / hot.requestsPerSecond) * 100).toFixed(0)}% of the plain hot links' rate; ${accounting(routedClicks, routed)}`,
        describe("  visitor's path, hot links", visitor, bareNodeFigures, 'bare Node'),
        `    (${(share(visitor, bareFigures) * 100).toFixed(0)}% of bare Deno, ${(share(visitor, hot) * 100).toFixed(0)}% of r reached directly) target >= ${TARGETS.visitorShareOfBare * 100}% of bare Node: ${verdict(share(visitor, bareNodeFigures) >= TARGETS.visitorShareOfBare)}`,
        `    ${accounting(visitorClicks, visitor)}`,
        `    ${visitorCosts}`,
        describe(`  bare Node, ${thousands(STEADY_RATE)}/s`, bareSteady),
        describe(`  visitor's path, ${thousands(STEADY_RATE)}/s`, steady),
        `    target p99 < ${TARGETS.steadyP99Ms} ms: ${verdict(steady.p99 < TARGETS.steadyP99Ms)}; ${accounting(steadyClicks, steady)}`,
        `    ${steadyCosts}`,
        `    ${routedPg}`,
        '',
      ].join('\n'),
    );
    const complaints = redirector
      .output()
      .split('\n')
      .filter((line) => /error|fail/i.test(line));
    if (complaints.length > 0)
      console.log(`The function logged:\n${complaints.slice(0, 20).join('\n')}`);
    if (
      !accounted(hotClicks, hot) ||
      !accounted(coldClicks, cold) ||
      !accounted(routedClicks, routed) ||
      !accounted(visitorClicks, visitor) ||
      !accounted(steadyClicks, steady)
    )
      process.exitCode = 1;
  } finally {
    await stop(redirector);
    await stop(bare);
    await stop(bareNode);
    await db?.end().catch(() => undefined);
    await stopStack(stack);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
