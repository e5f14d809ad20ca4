import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Supabase Cron (pg_cron), pg_net and Supabase Queues (pgmq) are extensions on Supabase; the
 * stack's PostgreSQL has none of them, so it carries stand-ins with the same SQL API
 * (supabase/local/sql/extensions): migrations say `create extension pg_cron` and run unchanged on
 * both. Where the stack can write the server's extension folder (the embedded server, which lives
 * in node_modules), the stand-ins are installed there as real extensions. On a server named by
 * DATABASE_URL that lacks them, they are run as plain SQL before the migrations, and the
 * migrations' `create extension` statements for them are skipped (withoutCreateExtension).
 */
export const STAND_IN_EXTENSIONS = ['pg_cron', 'pg_net', 'pgmq'] as const;
export type StandInExtension = (typeof STAND_IN_EXTENSIONS)[number];

export const EXTENSIONS_SQL_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../sql/extensions',
);

/** The schema each stand-in creates: its presence says the plain-SQL install was done. */
export const EXTENSION_SCHEMAS: Record<StandInExtension, string> = {
  pg_cron: 'cron',
  pg_net: 'net',
  pgmq: 'pgmq',
};

export interface ExtensionSetup {
  /** Stand-ins this stack runs the workers of (their real counterparts are absent). */
  standIns: StandInExtension[];
  /** Stand-ins to run as plain SQL, their `create extension` statements skipped. */
  plain: StandInExtension[];
}

function controlFile(name: StandInExtension): string {
  return path.join(EXTENSIONS_SQL_DIR, `${name}.control`);
}

/** The version's script beside the control file (its default_version names it). */
export function extensionScript(name: StandInExtension): string {
  const control = fs.readFileSync(controlFile(name), 'utf8');
  const version = control.match(/^default_version\s*=\s*'([^']+)'/m)?.[1];
  if (!version) throw new Error(`${controlFile(name)} names no default_version`);
  return path.join(EXTENSIONS_SQL_DIR, `${name}--${version}.sql`);
}

/** Copies a file unless the target already holds the same bytes (a running server may read it). */
function copyIfChanged(from: string, to: string) {
  const bytes = fs.readFileSync(from);
  if (fs.existsSync(to) && fs.readFileSync(to).equals(bytes)) return;
  fs.writeFileSync(to, bytes);
}

/** Installs the stand-ins as real extensions into a server's share directory. */
export function installIntoShareDir(shareDir: string) {
  const target = path.join(shareDir, 'extension');
  for (const name of STAND_IN_EXTENSIONS) {
    copyIfChanged(controlFile(name), path.join(target, `${name}.control`));
    const script = extensionScript(name);
    copyIfChanged(script, path.join(target, path.basename(script)));
  }
}

/**
 * Decides how each stand-in reaches the database. `embedded` servers get the real-extension
 * install; an external server keeps any real extension it offers (then its own worker runs, not
 * ours), and gets the plain-SQL fallback for the others.
 */
export async function setUpExtensions(
  url: string,
  options: { embedded: boolean },
): Promise<ExtensionSetup> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (options.embedded) {
      const { rows } = await client.query<{ setting: string }>(
        `select setting from pg_catalog.pg_config where name = 'SHAREDIR'`,
      );
      const shareDir = rows[0]?.setting;
      if (!shareDir) throw new Error('the embedded server did not tell its SHAREDIR');
      installIntoShareDir(shareDir);
      return { standIns: [...STAND_IN_EXTENSIONS], plain: [] };
    }
    const { rows } = await client.query<{ name: string; ours: boolean }>(
      `select name, coalesce(comment like '%Shortlane local stand-in%', false) as ours
       from pg_catalog.pg_available_extensions where name = any($1)`,
      [STAND_IN_EXTENSIONS],
    );
    const available = new Map(rows.map((row) => [row.name, row.ours]));
    const plain = STAND_IN_EXTENSIONS.filter((name) => !available.has(name));
    const standIns = STAND_IN_EXTENSIONS.filter(
      (name) => !available.has(name) || available.get(name) === true,
    );
    return { standIns, plain };
  } finally {
    await client.end();
  }
}

/** The plain-SQL install of one stand-in: what `create extension` would run. */
export function plainInstallSql(name: StandInExtension): string {
  const script = fs.readFileSync(extensionScript(name), 'utf8');
  // pgmq's control file names its schema, which create extension makes; plain SQL must.
  return name === 'pgmq' ? `create schema if not exists pgmq;\n${script}` : script;
}

/**
 * Blanks a migration's `create extension` statements for the given stand-ins (installed as plain
 * SQL, they are no extensions the server knows). Characters become spaces and newlines stay, so
 * an error's position still points at the right line.
 */
export function withoutCreateExtension(sql: string, names: readonly string[]): string {
  if (names.length === 0) return sql;
  const pattern = new RegExp(
    String.raw`create\s+extension\s+(?:if\s+not\s+exists\s+)?"?(?:${names.join('|')})"?(?=[\s;])[^;]*;`,
    'gi',
  );
  return sql.replace(pattern, (statement) => statement.replace(/[^\n]/g, ' '));
}
