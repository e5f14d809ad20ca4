import type pg from 'pg';
import { waitFor } from '../src/ports.ts';
import type { StackEnv } from '../src/stack.ts';

/**
 * Suites that create or drop API tables at run time (the REST and ra-supabase contract tests)
 * make PostgREST reload its schema cache. Beside each other they interfere: a reload in flight
 * while another suite writes, or two reloads finishing out of order, showed up as 404s on writes
 * to tables PostgREST had already served. So each such suite holds one advisory lock from the
 * creation of its tables until they are dropped again: these suites run one at a time, and every
 * other suite (which changes no schema) still runs beside them.
 */
const SCHEMA_CHANGE_LOCK = 7_305_000_421;

/** Waits for the other schema-changing suites; the lock lasts as long as `db`'s session. */
export async function holdSchemaLock(db: pg.ClientBase): Promise<void> {
  await db.query('select pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
}

export async function releaseSchemaLock(db: pg.ClientBase): Promise<void> {
  await db.query('select pg_advisory_unlock($1)', [SCHEMA_CHANGE_LOCK]);
}

/** Applies a schema change and waits until PostgREST's reloaded cache reflects it. */
export async function changeApiSchema(
  db: pg.ClientBase,
  change: () => Promise<void>,
  reflected: () => Promise<boolean>,
): Promise<void> {
  await change();
  await db.query(`notify pgrst, 'reload schema'`);
  await waitFor('PostgREST to reload its schema cache', reflected, 20_000, 100);
}

/**
 * Whether PostgREST's schema cache holds `table`, read from its OpenAPI document (built from that
 * cache). A plain GET is no probe for this: PostgREST 12 runs reads straight against the database,
 * so a new table reads 200 before the reload, while writes answer 404 until the cache has it.
 */
export async function schemaCacheHasTable(env: StackEnv, table: string): Promise<boolean> {
  const response = await fetch(`${env.SUPABASE_URL}/rest/v1/`, {
    headers: { apikey: env.SUPABASE_SERVICE_ROLE_KEY },
  });
  if (!response.ok) {
    await response.body?.cancel();
    return false;
  }
  const { paths } = (await response.json()) as { paths?: Record<string, unknown> };
  return Object.hasOwn(paths ?? {}, `/${table}`);
}
