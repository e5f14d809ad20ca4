import postgres from 'postgres';
import { type CallerClaims, callerOf } from './caller.ts';
import { requireEnv } from './env.ts';

export type Sql = postgres.Sql;
export type CallerSql = postgres.TransactionSql;

let pool: Sql | undefined;

/** The process-wide connection pool on SUPABASE_DB_URL (as postgres, the owner). */
export function sql(): Sql {
  pool ??= postgres(requireEnv('SUPABASE_DB_URL'), {
    max: 4,
    idle_timeout: 20,
    // Postgres notices (e.g. "relation already exists") are not function output.
    onnotice: () => {},
  });
  return pool;
}

/**
 * A value as the plain JSON its text says, for a jsonb parameter (`db.json(plainJson(x))`): the
 * providers' SDK entities are plain data objects whose class types just don't say so, and what
 * JSON drops (undefined fields, methods) is dropped here too.
 */
export const plainJson = (value: unknown) =>
  JSON.parse(JSON.stringify(value)) as postgres.JSONValue;

/** Closes the pool (tests; a function process otherwise keeps it until it ends). */
export async function closeSql(): Promise<void> {
  const open = pool;
  pool = undefined;
  await open?.end({ timeout: 5 });
}

/**
 * Runs `work` in one transaction as the caller: `set local role` to the token's role and
 * `request.jwt.claims` to its claims, as PostgREST does, so auth.uid(), auth.jwt() and every
 * RLS policy apply. For set-based work the REST API cannot express in one call.
 */
export async function asCaller<T>(
  request: Request,
  work: (sql: CallerSql) => Promise<T>,
): Promise<T> {
  return await asClaims(callerOf(request).claims, work);
}

/**
 * Runs `work` in one transaction as whoever `claims` name (e.g. `{ role: 'service_role' }` for
 * what a function does on its own authority after checking the rules itself).
 */
export async function asClaims<T>(
  claims: CallerClaims,
  work: (sql: CallerSql) => Promise<T>,
): Promise<T> {
  const result = await sql().begin(async (tx) => {
    // Sent now but not awaited: the connection runs the transaction's statements in order, so
    // this one goes out with the work's first statement instead of costing a round trip of its
    // own (a failure here fails the transaction, and postgres.js reports it).
    const claimed = tx`select set_config('role', ${claims.role}, true),
                    set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`.execute();
    const answer = await work(tx);
    await claimed;
    return answer;
  });
  return result as T;
}
