import type pg from 'pg';
import { StackError } from '../errors.ts';
import { readSupabaseConfig } from '../supabase-config.ts';
import { storageErrors } from './errors.ts';
import { isValidBucketName } from './names.ts';

/**
 * The storage part of supabase/config.toml: the global upload limit ([storage] file_size_limit)
 * and the buckets `supabase start` creates or updates ([storage.buckets.<name>]).
 */

export interface ConfigBucket {
  name: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

export interface StorageSettings {
  /** Bytes; Storage's FILE_SIZE_LIMIT, which the CLI sets from config.toml. */
  fileSizeLimit: number;
  buckets: ConfigBucket[];
}

/** The CLI's default when config.toml names no limit. */
const DEFAULT_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

const BINARY_UNITS: Record<string, number> = {
  '': 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
  p: 1024 ** 5,
};

/**
 * A size as config.toml writes it ("50MiB", "2MB", 1024). The CLI parses these with
 * go-units' RAMInBytes, where every unit is binary: "2MB" is 2 × 1024².
 */
export function parseConfigSize(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value !== 'string') return undefined;
  const match = value.trim().match(/^(\d+(?:\.\d+)?) ?([kmgtp]?)i?b?$/i);
  const multiplier = BINARY_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || multiplier === undefined) return undefined;
  return Math.floor(Number(match[1]) * multiplier);
}

const DECIMAL_UNITS: Record<string, number> = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 };

/** A bucket limit as the Storage API takes it: bytes, or "100MB" in decimal units. */
export function parseApiFileSize(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw storageErrors.invalidFileSizeLimit();
    return value;
  }
  const match = value.match(/^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i);
  const unit = DECIMAL_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined) throw storageErrors.invalidFileSizeLimit();
  const amount = Number(Number(match[1]).toPrecision(3));
  return Math.round(amount * unit);
}

const MIME_TYPE_PATTERN =
  /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

export function isValidMimeTypePattern(type: string): boolean {
  return type.length <= 1000 && MIME_TYPE_PATTERN.test(type);
}

function fail(message: string): never {
  throw new StackError(`supabase/config.toml: ${message}`);
}

function readBucket(name: string, raw: unknown, globalLimit: number): ConfigBucket {
  if (typeof raw !== 'object' || raw === null) fail(`[storage.buckets.${name}] must be a table`);
  const entry = raw as Record<string, unknown>;
  if (!isValidBucketName(name)) fail(`"${name}" is not a valid bucket name`);
  if (entry.public !== undefined && typeof entry.public !== 'boolean') {
    fail(`[storage.buckets.${name}] public must be true or false`);
  }
  let fileSizeLimit: number | null = null;
  if (entry.file_size_limit !== undefined) {
    const parsed = parseConfigSize(entry.file_size_limit);
    if (parsed === undefined) fail(`[storage.buckets.${name}] file_size_limit is not a size`);
    if (parsed > globalLimit) {
      fail(`[storage.buckets.${name}] file_size_limit exceeds [storage] file_size_limit`);
    }
    fileSizeLimit = parsed;
  }
  let allowedMimeTypes: string[] | null = null;
  if (entry.allowed_mime_types !== undefined) {
    const types = entry.allowed_mime_types;
    if (
      !Array.isArray(types) ||
      !types.every((t) => typeof t === 'string' && isValidMimeTypePattern(t))
    ) {
      fail(`[storage.buckets.${name}] allowed_mime_types must list MIME types`);
    }
    allowedMimeTypes = types as string[];
  }
  return { name, public: entry.public === true, fileSizeLimit, allowedMimeTypes };
}

export function storageSettingsFrom(config: Record<string, unknown>): StorageSettings {
  const storage = (config.storage ?? {}) as Record<string, unknown>;
  let fileSizeLimit = DEFAULT_FILE_SIZE_LIMIT;
  if (storage.file_size_limit !== undefined) {
    const parsed = parseConfigSize(storage.file_size_limit);
    if (parsed === undefined) fail('[storage] file_size_limit is not a size');
    fileSizeLimit = parsed;
  }
  const buckets = Object.entries((storage.buckets ?? {}) as Record<string, unknown>).map(
    ([name, raw]) => readBucket(name, raw, fileSizeLimit),
  );
  return { fileSizeLimit, buckets };
}

export function readStorageSettings(): StorageSettings {
  return storageSettingsFrom(readSupabaseConfig());
}

/**
 * Creates the buckets config.toml declares and brings existing ones in line with it, as
 * `supabase start` does after migrations and seeds. Returns the bucket names.
 */
export async function syncConfigBuckets(
  pool: pg.Pool,
  settings: StorageSettings = readStorageSettings(),
): Promise<string[]> {
  for (const bucket of settings.buckets) {
    await pool.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
       values ($1, $1, $2, $3, $4)
       on conflict (id) do update
         set public = excluded.public,
             file_size_limit = excluded.file_size_limit,
             allowed_mime_types = excluded.allowed_mime_types,
             updated_at = now()`,
      [bucket.name, bucket.public, bucket.fileSizeLimit, bucket.allowedMimeTypes],
    );
  }
  return settings.buckets.map((bucket) => bucket.name);
}
