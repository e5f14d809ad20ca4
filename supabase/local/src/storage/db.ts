import type pg from 'pg';
import type { Caller } from './caller.ts';
import { fromDatabaseError } from './errors.ts';

/**
 * Storage's database access. The pool connects as supabase_storage_admin, the owner of the
 * storage tables (so RLS does not apply to it). Every read or write done *for* a caller runs
 * inside a transaction after `actAs`, which switches to the caller's role and claims for the
 * rest of the transaction so that the RLS policies on storage.objects and storage.buckets decide.
 */

export type Tx = pg.PoolClient;

export async function transaction<T>(pool: pg.Pool, work: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw fromDatabaseError(error) ?? error;
  } finally {
    client.release();
  }
}

/** What Storage's own scope statement sets (role, claims, request data, operation). */
export async function actAs(
  tx: Tx,
  caller: Caller,
  request: { method: string; path: string; operation: string },
): Promise<void> {
  await tx.query(
    `select set_config('role', $1, true),
            set_config('request.jwt.claim.role', $1, true),
            set_config('request.jwt', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claims', $4, true),
            set_config('request.method', $5, true),
            set_config('request.path', $6, true),
            set_config('storage.operation', $7, true),
            set_config('storage.allow_delete_query', 'true', true)`,
    [
      caller.role,
      caller.jwt,
      caller.owner ?? '',
      JSON.stringify(caller.claims),
      request.method,
      request.path,
      request.operation,
    ],
  );
}

/** Back to supabase_storage_admin within the transaction (Storage's "as super user"). */
export async function actAsAdmin(tx: Tx): Promise<void> {
  await tx.query(
    `select set_config('role', 'none', true),
            set_config('storage.allow_delete_query', 'true', true)`,
  );
}

/** Serialises writers of one object key until the transaction ends (Storage's object lock). */
export async function lockObjectKey(tx: Tx, bucketId: string, name: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `storage.objects:${bucketId}/${name}`,
  ]);
}

/**
 * Runs `work` as the caller and always rolls back: Storage's `testPermission`, which asks RLS
 * whether a write would be allowed before any byte is accepted.
 */
export async function testPermission(
  pool: pg.Pool,
  work: (tx: Tx) => Promise<unknown>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await work(client);
  } catch (error) {
    throw fromDatabaseError(error) ?? error;
  } finally {
    await client.query('rollback').catch(() => {});
    client.release();
  }
}
