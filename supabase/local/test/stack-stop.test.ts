import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * A graceful stop loses no click: a stack of this file's own serves a steady load of redirects,
 * is stopped in the middle of it (by `stack:down`, and by a Ctrl-C at the terminal of a
 * foreground `stack:up`) and started again on the same state, and every redirect a client
 * received must be a click row. Each request carries its own Referer host, so the check is per
 * request, not a count that extra rows could balance.
 *
 * Its ports are the suite's plus 50 (the suite's stack uses +0, +1, +3, +10, +11, +12 and +110;
 * this one +50, +51, +53, +60, +61, +62 and +160), so it never touches the stack other files
 * share.
 */

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DOMAIN = 'stop.localhost';
const ALIAS = 'load';
/** About 150 redirects/s from 6 clients, each waiting 40 ms between its requests. */
const CLIENTS = 6;
const PAUSE_MS = 40;
/**
 * The stop begins once this many redirects were answered: a count rather than a time, so a busy
 * machine (slower answers) still stops a load that is well under way.
 */
const REDIRECTS_BEFORE_STOP = 250;

const shared = inject('stackEnv');
const portOf = (url: string) => Number(new URL(url).port);
const ports = {
  gateway: portOf(shared.SUPABASE_URL) + 50,
  db: portOf(shared.DB_URL) + 50,
  mail: portOf(shared.MAILBOX_URL) + 50,
};
const stateDir = path.join(REPO_ROOT, '.local', `stack-stop-${ports.gateway}`);
const dbUrl = `postgresql://postgres:postgres@127.0.0.1:${ports.db}/postgres`;

const cliEnv = {
  ...process.env,
  STACK_GATEWAY_PORT: String(ports.gateway),
  STACK_DB_PORT: String(ports.db),
  STACK_MAIL_PORT: String(ports.mail),
  STACK_POSTGREST_PORT: '',
  STACK_FUNCTIONS_PORT: '',
  STACK_DNS_PORT: '',
  STACK_STATE_DIR: stateDir,
  STACK_WATCH_FUNCTIONS: 'false',
  STACK_SEED: 'false',
};

const cliArgs = (command: string, ...flags: string[]) => [
  '--import',
  'tsx',
  CLI,
  command,
  ...flags,
];

/** Runs `cli.ts up --detach` or `cli.ts down` to its end; rejects with its output if it fails. */
function cli(command: 'up' | 'down'): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = cliArgs(command, ...(command === 'up' ? ['--detach'] : []));
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: cliEnv });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`stack ${command} failed:\n${output}`)),
    );
  });
}

/**
 * `cli.ts up` in the foreground, leading a process group of its own as a terminal's job does;
 * resolves once the stack serves.
 */
async function upInForeground(): Promise<ChildProcess> {
  const child = spawn(process.execPath, cliArgs('up'), {
    cwd: REPO_ROOT,
    env: cliEnv,
    detached: true,
    stdio: 'ignore',
  });
  const envFile = path.join(stateDir, 'stack.env');
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(envFile) || !fs.existsSync(path.join(stateDir, 'stack.pid'))) {
    if (child.exitCode !== null) throw new Error(`stack up exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('stack up did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

/** What a Ctrl-C does: SIGINT to every process of the terminal's foreground group. */
async function interrupt(group: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => group.once('exit', resolve));
  process.kill(-(group.pid as number), 'SIGINT');
  await exited;
}

async function withDb<T>(use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

/** One account, one verified domain and one link on it, as the benchmark makes them. */
async function createLink(db: pg.Client): Promise<string> {
  const userId = '00000000-0000-4000-8000-0000000057a1';
  await db.query(
    `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', 'stop@stack.test', now(), now(), now())`,
    [userId],
  );
  await db.query(
    `insert into public.domains (domain, kind, verification_status, verified_at, redirect_status)
     values ($1, 'common', 'verified', now(), 302)`,
    [DOMAIN],
  );
  const { rows } = await db.query<{ id: string }>(
    `with account as (select personal_account_id as id from public.profiles where id = $1),
     url as (
       insert into public.long_urls (account_id, url)
       select id, 'https://example.com/landing' from account returning id, account_id
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by)
     select url.id, url.account_id, d.id, $2, $1 from url, public.domains d where d.domain = $3
     returning id`,
    [userId, ALIAS, DOMAIN],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('the link was not created');
  return id;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/** The status of one redirect request, or undefined when no answer came (refused, cut). */
function visit(referrerHost: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: ports.gateway,
        path: `/${ALIAS}`,
        agent,
        timeout: 10_000,
        headers: {
          host: DOMAIN,
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) stack-stop-test',
          referer: `https://${referrerHost}/`,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
    request.end();
  });
}

interface LoadResult {
  /** Referrer hosts of the requests answered with a redirect. */
  redirected: string[];
  /** Requests answered with a redirect after the stop began. */
  redirectedWhileStopping: number;
  otherStatuses: number[];
}

/**
 * CLIENTS loops of requests, each with a unique Referer host (`<prefix><n>.load.test`), until
 * `stopped()` is true; the outcomes go into `result`. A request that got no answer (refused,
 * cut) counts for nothing: only a redirect received must be a click.
 */
async function load(
  prefix: string,
  result: LoadResult,
  stopping: () => boolean,
  stopped: () => boolean,
): Promise<void> {
  let next = 0;
  const client = async () => {
    while (!stopped()) {
      const host = `${prefix}${next++}.load.test`;
      const during = stopping();
      const status = await visit(host);
      if (status !== undefined && status >= 300 && status < 400) {
        result.redirected.push(host);
        if (during) result.redirectedWhileStopping++;
      } else if (status !== undefined) result.otherStatuses.push(status);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
}

async function recordedReferrers(aliasId: string): Promise<Set<string>> {
  return withDb(async (db) => {
    const { rows } = await db.query<{ referrer_host: string }>(
      'select referrer_host from public.clicks where alias_id = $1',
      [aliasId],
    );
    return new Set(rows.map((row) => row.referrer_host));
  });
}

/**
 * Loads the running stack, stops it with `stop` after REDIRECTS_BEFORE_STOP, starts it again
 * (detached) and returns the load's figures with the answered redirects that were not recorded.
 */
async function stopUnderLoad(aliasId: string, prefix: string, stop: () => Promise<unknown>) {
  let stopping = false;
  let stopped = false;
  const result: LoadResult = { redirected: [], redirectedWhileStopping: 0, otherStatuses: [] };
  const running = load(
    prefix,
    result,
    () => stopping,
    () => stopped,
  );
  try {
    const deadline = Date.now() + 20_000;
    while (result.redirected.length < REDIRECTS_BEFORE_STOP) {
      if (Date.now() > deadline || result.otherStatuses.length > 0)
        throw new Error(`The load did not get going: ${JSON.stringify(result)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    stopping = true;
    await stop();
  } finally {
    stopped = true;
    await running;
  }

  await cli('up');
  const recorded = await recordedReferrers(aliasId);
  const lost = result.redirected.filter((host) => !recorded.has(host));
  console.log(
    `stack-stop (${prefix}): ${result.redirected.length} redirects answered ` +
      `(${result.redirectedWhileStopping} after the stop began), ${lost.length} not recorded`,
  );
  return { ...result, lost };
}

describe('stopping the stack under load', () => {
  let aliasId: string;

  beforeAll(async () => {
    fs.rmSync(stateDir, { recursive: true, force: true });
    await cli('up');
    aliasId = await withDb(createLink);
  }, 90_000);

  afterAll(async () => {
    agent.destroy();
    await cli('down').catch(() => undefined);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  it('records every redirect a client received when `stack:down` stops it', async () => {
    const result = await stopUnderLoad(aliasId, 'down', () => cli('down'));

    expect(result.otherStatuses).toEqual([]);
    // The stop came in the middle of the load (the gateway answered while it drained).
    expect(result.redirectedWhileStopping).toBeGreaterThan(0);
    expect(result.lost).toEqual([]);
  }, 60_000);

  it('records every redirect a client received when a Ctrl-C stops `stack:up`', async () => {
    await cli('down');
    const foreground = await upInForeground();
    const result = await stopUnderLoad(aliasId, 'ctrlc', () => interrupt(foreground));

    expect(result.otherStatuses).toEqual([]);
    expect(result.lost).toEqual([]);
  }, 60_000);
});
