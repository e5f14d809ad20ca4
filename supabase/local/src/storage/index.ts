import type pg from 'pg';
import type { StackConfig } from '../config.ts';
import { notImplemented } from '../gateway.ts';
import type { WebHandler } from '../http.ts';

export interface StorageDependencies {
  config: StackConfig;
  /** Connected as supabase_storage_admin; object rows are written after `set local role` to the caller's role. */
  pool: pg.Pool;
  /** Where object bytes live on disk. */
  objectsDir: string;
}

/** Supabase Storage-compatible HTTP API; requests arrive with the /storage/v1 prefix removed. */
export function createStorageService(_deps: StorageDependencies): WebHandler {
  return notImplemented;
}
