import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { REPO_ROOT } from './config.ts';
import { StackError } from './errors.ts';
import {
  EXTENSION_SCHEMAS,
  extensionScript,
  plainInstallSql,
  withoutCreateExtension,
  type StandInExtension,
} from './extensions.ts';

const BOOTSTRAP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../sql');
export const MIGRATIONS_DIR = path.join(REPO_ROOT, 'supabase', 'migrations');
/** Seed files in order, as config.toml's [db.seed] sql_paths lists them. */
export const SEED_DIR = path.join(REPO_ROOT, 'supabase', 'seeds');

function sqlFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => path.join(dir, name));
}

function lineOf(sql: string, position: string | undefined): number | undefined {
  const offset = Number(position);
  if (!Number.isInteger(offset) || offset <= 0) return undefined;
  return sql.slice(0, offset - 1).split('\n').length;
}

/** Runs one file (or the given text of it) in its own transaction; a failure names file and line. */
async function runFile(
  client: pg.Client,
  file: string,
  after?: (client: pg.Client) => Promise<void>,
  sql = fs.readFileSync(file, 'utf8'),
) {
  try {
    await client.query('begin');
    await client.query(sql);
    await after?.(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    const pgError = error as pg.DatabaseError;
    const line = lineOf(sql, pgError.position);
    const where = path.relative(REPO_ROOT, file) + (line ? `:${line}` : '');
    throw new StackError(
      `${where}: ${pgError.message}. Fix that statement, then run \`npm run stack:reset\` (or \`stack:up\` again for a new migration).`,
    );
  }
}

/** True when the database already has Supabase's schemas (a hosted project, or a bootstrapped one). */
async function isBootstrapped(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query(`select to_regclass('auth.users') is not null as ready`);
  return rows[0]?.ready === true;
}

export interface MigrationReport {
  bootstrapped: boolean;
  applied: string[];
  seeded: boolean;
}

/**
 * Brings a database up to date: Supabase's roles and schemas when missing, the stand-in extensions
 * the server lacks as plain SQL (`plainExtensions`, see extensions.ts), then every migration not
 * yet recorded (tracked in supabase_migrations.schema_migrations as the Supabase CLI does), then
 * seed.sql when the database was new.
 */
export async function migrate(
  url: string,
  options: { seed: boolean; plainExtensions?: readonly StandInExtension[] },
): Promise<MigrationReport> {
  const plainExtensions = options.plainExtensions ?? [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set client_min_messages = warning`);
    const bootstrapped = !(await isBootstrapped(client));
    if (bootstrapped) {
      for (const file of sqlFiles(BOOTSTRAP_DIR)) await runFile(client, file);
    }
    for (const name of plainExtensions) {
      const { rows } = await client.query<{ present: boolean }>(
        'select to_regnamespace($1) is not null as present',
        [EXTENSION_SCHEMAS[name]],
      );
      if (!rows[0]?.present) {
        await runFile(client, extensionScript(name), undefined, plainInstallSql(name));
      }
    }
    await client.query(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, statements text[], name text
      )`);
    const { rows } = await client.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations',
    );
    const done = new Set(rows.map((row) => row.version));
    const applied: string[] = [];
    for (const file of sqlFiles(MIGRATIONS_DIR)) {
      const base = path.basename(file, '.sql');
      const [version, ...rest] = base.split('_');
      if (!version || !/^\d+$/.test(version)) {
        throw new StackError(
          `${path.relative(REPO_ROOT, file)}: migration names must start with a timestamp (e.g. 20260101000000_name.sql).`,
        );
      }
      if (done.has(version)) continue;
      await runFile(
        client,
        file,
        (c) =>
          c
            .query(
              'insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)',
              [version, rest.join('_')],
            )
            .then(() => undefined),
        withoutCreateExtension(fs.readFileSync(file, 'utf8'), plainExtensions),
      );
      applied.push(base);
    }
    const seeds = sqlFiles(SEED_DIR);
    const seeded = bootstrapped && options.seed && seeds.length > 0;
    if (seeded) for (const file of seeds) await runFile(client, file);
    // PostgREST caches the schema; tell a running one to reload it.
    await client.query(`notify pgrst, 'reload schema'`);
    return { bootstrapped, applied, seeded };
  } finally {
    await client.end();
  }
}
