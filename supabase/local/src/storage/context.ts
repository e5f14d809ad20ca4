import type pg from 'pg';
import type { Caller } from './caller.ts';
import { actAs, transaction, type Tx } from './db.ts';
import type { ObjectStore } from './disk.ts';
import { storageErrors } from './errors.ts';

/** What every Storage handler works with. */
export interface StorageContext {
  /** Connected as supabase_storage_admin. */
  pool: pg.Pool;
  store: ObjectStore;
  jwtSecret: string;
  /** The global upload limit in bytes ([storage] file_size_limit). */
  fileSizeLimit: number;
}

/** The request facts Storage exposes to SQL while acting as a caller. */
export interface RequestScope {
  method: string;
  path: string;
  operation: string;
}

/** Runs `work` in a transaction acting as the caller, so RLS decides what it sees and changes. */
export function asCaller<T>(
  context: StorageContext,
  caller: Caller,
  scope: RequestScope,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return transaction(context.pool, async (tx) => {
    await actAs(tx, caller, scope);
    return work(tx);
  });
}

export interface BucketLimits {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

/** A bucket's settings, read as Storage's super user does (not subject to RLS). */
export async function findBucketAsAdmin(
  context: StorageContext,
  bucketId: string,
): Promise<BucketLimits | undefined> {
  const { rows } = await context.pool.query<BucketLimits>(
    `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
       from storage.buckets where id = $1`,
    [bucketId],
  );
  return rows[0];
}

export async function mustFindBucketAsAdmin(
  context: StorageContext,
  bucketId: string,
): Promise<BucketLimits> {
  const bucket = await findBucketAsAdmin(context, bucketId);
  if (!bucket) throw storageErrors.noSuchBucket();
  return bucket;
}
