import { json } from '../http.ts';
import { requireServiceRole } from './caller.ts';
import { asCaller, mustFindBucketAsAdmin, type StorageContext } from './context.ts';
import { actAs, transaction } from './db.ts';
import { StorageApiError, storageErrors } from './errors.ts';
import { assertValidBucketName } from './names.ts';
import { deleteAllObjects, ownerColumns } from './object-rows.ts';
import { field, readJsonObject } from './request-body.ts';
import type { Route, RouteInput } from './router.ts';
import { isValidMimeTypePattern, parseApiFileSize } from './settings.ts';

/** Buckets (routes/bucket/*): read and written as the caller, so RLS on storage.buckets decides. */

const BUCKET_COLUMNS =
  'id, name, owner, public, created_at, updated_at, file_size_limit::float8 as file_size_limit, allowed_mime_types';
const LIST_SORT_COLUMNS = ['id', 'name', 'created_at', 'updated_at'];

function readFileSizeLimit(
  context: StorageContext,
  body: Record<string, unknown>,
): number | null | undefined {
  const value = body.file_size_limit;
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'number' && typeof value !== 'string') {
    throw storageErrors.invalidRequest('body/file_size_limit must match a schema in anyOf');
  }
  const bytes = parseApiFileSize(value);
  if (bytes > context.fileSizeLimit) throw storageErrors.entityTooLarge();
  return bytes;
}

function readAllowedMimeTypes(body: Record<string, unknown>): string[] | null | undefined {
  const value = body.allowed_mime_types;
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw storageErrors.invalidRequest('body/allowed_mime_types must be array');
  }
  const types = (value as string[]).filter((type) => type);
  for (const type of types) {
    if (!isValidMimeTypePattern(type)) throw storageErrors.invalidMimeType(type);
  }
  return types;
}

async function listBuckets(context: StorageContext, input: RouteInput) {
  const query = input.url.searchParams;
  const conditions: string[] = [];
  const values: unknown[] = [];
  const search = query.get('search');
  if (search) {
    values.push(`%${search.replace(/[\\%_]/g, '\\$&')}%`);
    conditions.push(`name ilike $${values.length}`);
  }
  const sortColumn = query.get('sortColumn');
  const sortOrder = query.get('sortOrder') ?? 'asc';
  if (sortColumn !== null && !LIST_SORT_COLUMNS.includes(sortColumn)) {
    throw storageErrors.invalidRequest(
      'querystring/sortColumn must be equal to one of the allowed values',
    );
  }
  if (sortOrder !== 'asc' && sortOrder !== 'desc') {
    throw storageErrors.invalidRequest(
      'querystring/sortOrder must be equal to one of the allowed values',
    );
  }
  let pagination = '';
  for (const name of ['limit', 'offset'] as const) {
    const raw = query.get(name);
    if (raw === null) continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0) {
      throw storageErrors.invalidRequest(`querystring/${name} must be integer`);
    }
    values.push(value);
    pagination += ` ${name} $${values.length}`;
  }
  const rows = await asCaller(context, input.caller, input.scope, async (tx) => {
    const result = await tx.query(
      `select ${BUCKET_COLUMNS}, type from storage.buckets
       ${conditions.length ? `where ${conditions.join(' and ')}` : ''}
       ${sortColumn ? `order by ${sortColumn} ${sortOrder}` : ''}
       ${pagination}`,
      values,
    );
    return result.rows;
  });
  return json(rows);
}

async function getBucket(context: StorageContext, input: RouteInput) {
  const row = await asCaller(context, input.caller, input.scope, async (tx) => {
    const { rows } = await tx.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [
      input.params.id,
    ]);
    return rows[0] as Record<string, unknown> | undefined;
  });
  if (!row) throw storageErrors.noSuchBucket();
  return json(row);
}

async function createBucket(context: StorageContext, input: RouteInput) {
  const body = await readJsonObject(input.request);
  const name = field.requiredString(body, 'name');
  if (name.trim() !== name) throw storageErrors.invalidBucketName();
  assertValidBucketName(name);
  const id = field.optionalString(body, 'id') || name;
  // Storage checks only the name; the id names a folder on disk here, so it is checked too.
  assertValidBucketName(id);
  const type = field.optionalString(body, 'type') ?? 'STANDARD';
  if (type === 'ANALYTICS') {
    throw new StorageApiError(
      409,
      'FeatureNotEnabled',
      'The feature Iceberg buckets are not enabled for this tenant is not enabled for this resource',
    );
  }
  if (type !== 'STANDARD') {
    throw storageErrors.invalidRequest('body/type must be equal to one of the allowed values');
  }
  const isPublic = field.optionalBoolean(body, 'public') ?? false;
  const fileSizeLimit = readFileSizeLimit(context, body) ?? null;
  const allowedMimeTypes = readAllowedMimeTypes(body) ?? null;
  const [owner, ownerId] = ownerColumns(input.caller.owner);
  try {
    await asCaller(context, input.caller, input.scope, (tx) =>
      tx.query(
        `insert into storage.buckets
           (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
         values ($1, $2, $3, $4, $5, $6, $7, 'STANDARD')`,
        [id, name, owner, ownerId, isPublic, fileSizeLimit, allowedMimeTypes],
      ),
    );
  } catch (error) {
    if (error instanceof StorageApiError && error.code === 'ResourceAlreadyExists') {
      throw storageErrors.bucketAlreadyExists();
    }
    throw error;
  }
  return json({ name });
}

async function updateBucket(context: StorageContext, input: RouteInput) {
  const id = input.params.id ?? '';
  assertValidBucketName(id);
  const body = await readJsonObject(input.request);
  const changes: [string, unknown][] = [];
  const isPublic = field.optionalBoolean(body, 'public');
  if (isPublic !== undefined) changes.push(['public', isPublic]);
  const fileSizeLimit = readFileSizeLimit(context, body);
  if (fileSizeLimit !== undefined) changes.push(['file_size_limit', fileSizeLimit]);
  const allowedMimeTypes = readAllowedMimeTypes(body);
  if (allowedMimeTypes !== undefined) changes.push(['allowed_mime_types', allowedMimeTypes]);
  if (changes.length === 0) throw storageErrors.invalidRequest('body must match a schema in anyOf');
  const updated = await asCaller(context, input.caller, input.scope, async (tx) => {
    const assignments = changes.map(([column], index) => `${column} = $${index + 2}`);
    const result = await tx.query(
      `update storage.buckets set ${assignments.join(', ')}, updated_at = now() where id = $1`,
      [id, ...changes.map(([, value]) => value)],
    );
    return result.rowCount ?? 0;
  });
  if (updated === 0) throw storageErrors.noSuchBucket();
  return json({ message: 'Successfully updated' });
}

async function deleteBucket(context: StorageContext, input: RouteInput) {
  const id = input.params.id ?? '';
  await transaction(context.pool, async (tx) => {
    const { rows } = await tx.query('select id from storage.buckets where id = $1 for update', [
      id,
    ]);
    if (rows.length === 0) throw storageErrors.noSuchBucket();
    const objects = await tx.query('select 1 from storage.objects where bucket_id = $1 limit 1', [
      id,
    ]);
    if (objects.rows.length > 0) throw storageErrors.bucketNotEmpty();
    await actAs(tx, input.caller, input.scope);
    const deleted = await tx.query('delete from storage.buckets where id = $1', [id]);
    if (deleted.rowCount === 0) throw storageErrors.noSuchBucket();
  });
  return json({ message: 'Successfully deleted' });
}

/** Service role only. Storage queues the work; here it is done before answering. */
async function emptyBucket(context: StorageContext, input: RouteInput) {
  requireServiceRole(input.caller);
  const id = input.params.id ?? '';
  await mustFindBucketAsAdmin(context, id);
  const removed = await asCaller(context, input.caller, input.scope, (tx) =>
    deleteAllObjects(tx, id),
  );
  await context.store.removeVersions(removed);
  return json({ message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}

export function bucketRoutes(context: StorageContext): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/bucket',
      operation: 'storage.bucket.list',
      access: 'jwt',
      handler: (input) => listBuckets(context, input),
    },
    {
      method: 'POST',
      pattern: '/bucket',
      operation: 'storage.bucket.create',
      access: 'jwt',
      handler: (input) => createBucket(context, input),
    },
    {
      method: 'POST',
      pattern: '/bucket/:id/empty',
      operation: 'storage.bucket.empty',
      access: 'jwt',
      handler: (input) => emptyBucket(context, input),
    },
    {
      method: 'GET',
      pattern: '/bucket/:id',
      operation: 'storage.bucket.get',
      access: 'jwt',
      handler: (input) => getBucket(context, input),
    },
    {
      method: 'PUT',
      pattern: '/bucket/:id',
      operation: 'storage.bucket.update',
      access: 'jwt',
      handler: (input) => updateBucket(context, input),
    },
    {
      method: 'DELETE',
      pattern: '/bucket/:id',
      operation: 'storage.bucket.delete',
      access: 'jwt',
      handler: (input) => deleteBucket(context, input),
    },
  ];
}
