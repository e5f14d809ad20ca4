import pg from 'pg';
import { afterAll, inject } from 'vitest';
// Brings global-setup's `stackEnv` typing for inject() into this program.
import type {} from '../../local/test/global-setup.ts';

/** Clients that withRollback opened a transaction on; asActor nests a savepoint inside them. */
const inTransaction = new WeakSet<pg.ClientBase>();

export function isInTransaction(client: pg.ClientBase): boolean {
  return inTransaction.has(client);
}

/**
 * A small pool on the test stack's database (as `postgres`, which bypasses RLS: factories use it
 * to set the scene; asActor switches role for the part under test). Call once per test file, at
 * the top level: the pool closes after the file's tests.
 */
export function useDatabase(): pg.Pool {
  const pool = new pg.Pool({ connectionString: inject('stackEnv').DB_URL, max: 4 });
  // An idle connection cut by the server (the stack stopping) must not crash the test worker;
  // a query in flight still fails with its own error.
  pool.on('error', () => {});
  afterAll(() => pool.end());
  return pool;
}

/**
 * Runs fn in a transaction that is always rolled back, so a test never leaves data behind and
 * parallel test files never see each other's rows.
 */
export async function withRollback<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    inTransaction.add(client);
    return await fn(client);
  } finally {
    inTransaction.delete(client);
    await client.query('rollback').catch(() => {});
    client.release();
  }
}

/** Anything that runs a query: a pool, or a client (inside a transaction or not). */
export type Queryable = pg.ClientBase | pg.Pool;

/** The first row of a query, failing loudly when there is none. */
export async function one<T extends pg.QueryResultRow>(
  client: Queryable,
  sql: string,
  params: unknown[] = [],
): Promise<T> {
  const { rows } = await client.query<T>(sql, params);
  const row = rows[0];
  if (!row) throw new Error(`Expected a row from: ${sql}`);
  return row;
}

/** All rows of a query. */
export async function all<T extends pg.QueryResultRow>(
  client: Queryable,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const { rows } = await client.query<T>(sql, params);
  return rows;
}

let savepointCounter = 0;

/**
 * Runs fn (as whoever the client is) inside a savepoint: a failure rolls back to it, keeping the
 * test's transaction usable, and is rethrown. Lets one test assert several refused statements.
 */
export async function inSavepoint<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  const name = `step_${++savepointCounter}`;
  await client.query(`savepoint ${name}`);
  try {
    const result = await fn();
    await client.query(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await client.query(`rollback to savepoint ${name}`);
    throw error;
  }
}
