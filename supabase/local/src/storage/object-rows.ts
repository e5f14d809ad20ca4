import pg from 'pg';
import type { Tx } from './db.ts';
import { storageErrors } from './errors.ts';

/**
 * SQL on storage.objects. Each function runs in whatever role the transaction acts as, so the
 * same query is RLS-checked for a caller and unrestricted for the admin.
 */

/** What Storage keeps in objects.metadata (the backend's view of the bytes). */
export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Partial<ObjectMetadata> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

export interface ObjectWrite {
  bucketId: string;
  name: string;
  /** The JWT sub of the writer. */
  owner: string | undefined;
  version: string;
  metadata: Partial<ObjectMetadata>;
  userMetadata: Record<string, unknown> | undefined;
}

/** The columns Storage returns for an object (its objectSchema; path_tokens stays internal). */
export const OBJECT_COLUMNS =
  'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** objects.owner is a uuid column; owner_id keeps any sub (Storage does the same split). */
export function ownerColumns(owner: string | undefined): [string | null, string | null] {
  return [owner && UUID.test(owner) ? owner : null, owner ?? null];
}

export async function findObject(
  tx: Tx,
  bucketId: string,
  name: string,
  options: { forUpdate?: boolean } = {},
): Promise<ObjectRow | undefined> {
  const { rows } = await tx.query<ObjectRow>(
    `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2
     limit 1 ${options.forUpdate ? 'for update' : ''}`,
    [bucketId, name],
  );
  return rows[0];
}

export async function mustFindObject(tx: Tx, bucketId: string, name: string): Promise<ObjectRow> {
  const row = await findObject(tx, bucketId, name);
  if (!row) throw storageErrors.noSuchKey();
  return row;
}

/** The subset of `names` visible in the bucket. */
export async function findObjectNames(
  tx: Tx,
  bucketId: string,
  names: string[],
): Promise<Set<string>> {
  const { rows } = await tx.query<{ name: string }>(
    'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
    [bucketId, names],
  );
  return new Set(rows.map((row) => row.name));
}

/** A new object; an existing key is Storage's Duplicate answer. */
export async function insertObject(tx: Tx, data: ObjectWrite): Promise<ObjectRow> {
  const [owner, ownerId] = ownerColumns(data.owner);
  try {
    const { rows } = await tx.query<ObjectRow>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
       values ($1, $2, $3, $4, $5, $6, $7)
       returning ${OBJECT_COLUMNS}`,
      [
        data.bucketId,
        data.name,
        owner,
        ownerId,
        data.version,
        data.metadata,
        data.userMetadata ?? null,
      ],
    );
    return rows[0] as ObjectRow;
  } catch (error) {
    if (error instanceof pg.DatabaseError && error.code === '23505') {
      throw storageErrors.keyAlreadyExists();
    }
    throw error;
  }
}

/** Creates or replaces an object (RLS needs insert, and select + update when it exists). */
export async function upsertObject(tx: Tx, data: ObjectWrite): Promise<ObjectRow> {
  const [owner, ownerId] = ownerColumns(data.owner);
  const { rows } = await tx.query<ObjectRow>(
    `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (bucket_id, name) do update
       set owner = excluded.owner,
           owner_id = excluded.owner_id,
           version = excluded.version,
           metadata = excluded.metadata,
           user_metadata = excluded.user_metadata
     returning ${OBJECT_COLUMNS}`,
    [
      data.bucketId,
      data.name,
      owner,
      ownerId,
      data.version,
      data.metadata,
      data.userMetadata ?? null,
    ],
  );
  // An upsert that RLS refuses raises instead of returning nothing.
  return rows[0] as ObjectRow;
}

/** Renames an object in place (move); undefined when the caller may not see or change it. */
export async function relocateObject(
  tx: Tx,
  from: { bucketId: string; name: string },
  to: { bucketId: string; name: string; version: string; owner: string | undefined },
): Promise<ObjectRow | undefined> {
  const [owner, ownerId] = ownerColumns(to.owner);
  const { rows } = await tx.query<ObjectRow>(
    `update storage.objects
        set bucket_id = $3, name = $4, version = $5, owner = $6, owner_id = $7
      where bucket_id = $1 and name = $2
      returning ${OBJECT_COLUMNS}`,
    [from.bucketId, from.name, to.bucketId, to.name, to.version, owner, ownerId],
  );
  return rows[0];
}

export async function deleteObjects(
  tx: Tx,
  bucketId: string,
  names: string[],
): Promise<ObjectRow[]> {
  const { rows } = await tx.query<ObjectRow>(
    `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
     returning ${OBJECT_COLUMNS}`,
    [bucketId, names],
  );
  return rows;
}

export async function deleteAllObjects(tx: Tx, bucketId: string): Promise<ObjectRow[]> {
  const { rows } = await tx.query<ObjectRow>(
    `delete from storage.objects where bucket_id = $1 returning ${OBJECT_COLUMNS}`,
    [bucketId],
  );
  return rows;
}

export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
  metadata: Record<string, unknown> | null;
}

export interface ListOptions {
  limit: number;
  offset: number;
  search: string;
  sortColumn: string;
  sortOrder: 'asc' | 'desc';
}

/** One folder level under `prefix`, through storage.search() as Storage lists. */
export async function searchObjects(
  tx: Tx,
  bucketId: string,
  prefix: string,
  options: ListOptions,
): Promise<ListEntry[]> {
  const folder = prefix.length > 0 && !prefix.endsWith('/') ? `${prefix}/` : prefix;
  const { rows } = await tx.query<ListEntry>(
    'select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)',
    [
      folder,
      bucketId,
      options.limit,
      (folder + options.search).split('/').length,
      options.offset,
      options.search,
      options.sortColumn,
      options.sortOrder,
    ],
  );
  return rows;
}

/** The sort orders of a v2 listing (Storage's list-v2 takes no last_accessed_at). */
export type ListV2Column = 'name' | 'updated_at' | 'created_at';

export interface ListV2Options {
  /** A plain string prefix of the key (not necessarily a folder), matched literally. */
  prefix: string;
  /** Group keys by `/` under the prefix into folders (S3's delimiter listing). */
  delimited: boolean;
  limit: number;
  column: ListV2Column;
  order: 'asc' | 'desc';
  /** Entries strictly after this one in the listing's order (a cursor). */
  after?: { sortKey: string; at: string | undefined };
}

export interface ListV2Row {
  /** Where the entry sorts: the key of an object, the common prefix (with its `/`) of a folder. */
  sort_key: string;
  /** Delimited listings only: the entry's segment at the prefix's depth. */
  key?: string;
  /** The full key of an object; the common prefix of a folder, without its last `/`. */
  name: string;
  id: string | null;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
  metadata: Record<string, unknown> | null;
}

/**
 * Objects under a prefix, flat or grouped into folders, in keyset pages (Storage's list-v2 on
 * storage.search_v2). Runs as whoever the transaction acts as, so RLS decides what is listed.
 * Folders sort by their common prefix `a/b/`, where their first object would, and a folder's
 * time is its oldest object's creation (Storage's own rule); with equal times, keys decide.
 */
export async function listObjectsV2(
  tx: Tx,
  bucketId: string,
  options: ListV2Options,
): Promise<ListV2Row[]> {
  const values: unknown[] = [bucketId, options.prefix];
  const param = (value: unknown) => `$${values.push(value)}`;
  const byName = options.column === 'name';
  const direction = options.order === 'desc' ? 'desc' : 'asc';
  // The column is one of three names (ListV2Column), never text from the request.
  const time = `date_trunc('milliseconds', entries.${options.column})`;
  let cursor = 'true';
  if (options.after) {
    const afterKey = param(options.after.sortKey);
    const operator = direction === 'asc' ? '>' : '<';
    cursor = byName
      ? `entries.sort_key collate "C" ${operator} ${afterKey}`
      : `(${time}, entries.sort_key collate "C") ${operator}
         (coalesce(nullif(${param(options.after.at ?? '')}, '')::timestamptz, 'epoch'), ${afterKey})`;
  }
  const keyColumn = options.delimited
    ? `split_part(entries.name, '/', ${param(options.prefix === '' ? 1 : options.prefix.split('/').length)}::int) as key,`
    : '';
  const folder = options.delimited ? `storage.get_common_prefix(o.name, $2, '/')` : 'null::text';
  // Storage gives folders no times when listing by name, their oldest object's otherwise.
  const folderTime = byName ? 'null::timestamptz' : 'min(matched.created_at)';
  const order = byName
    ? `entries.sort_key collate "C" ${direction}`
    : `${time} ${direction}, entries.sort_key collate "C" ${direction}`;
  const { rows } = await tx.query<ListV2Row>(
    `with matched as (
       select ${folder} as folder, o.name, o.id, o.updated_at, o.created_at,
              o.last_accessed_at, o.metadata
         from storage.objects o
        where o.bucket_id = $1 and starts_with(o.name, $2)
     ),
     entries as (
       select folder as sort_key, left(folder, -1) as name, null::uuid as id,
              ${folderTime} as updated_at, ${folderTime} as created_at,
              null::timestamptz as last_accessed_at, null::jsonb as metadata
         from matched where folder is not null group by folder
       union all
       select name, name, id, updated_at, created_at, last_accessed_at, metadata
         from matched where folder is null
     )
     select entries.sort_key, ${keyColumn}
            entries.name, entries.id, entries.updated_at, entries.created_at,
            entries.last_accessed_at, entries.metadata
       from entries
      where ${cursor}
      order by ${order}
      limit ${param(options.limit)}`,
    values,
  );
  return rows;
}
