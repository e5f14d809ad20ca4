import { json } from '../http.ts';
import { asCaller, findBucketAsAdmin, type StorageContext } from './context.ts';
import { actAs, transaction, type Tx } from './db.ts';
import { storageErrors } from './errors.ts';
import { listV2 } from './list-v2.ts';
import { assertValidKey } from './names.ts';
import {
  deleteObjects,
  findObject,
  mustFindObject,
  searchObjects,
  type ObjectRow,
} from './object-rows.ts';
import { renderAsset, renderHead, renderInfo } from './render.ts';
import { field, readJsonObject } from './request-body.ts';
import type { Route, RouteInput } from './router.ts';
import { copyObject, moveObject } from './transfers.ts';
import { storeUpload } from './uploads.ts';

/** Storage caps bulk deletes at 1000 keys per request. */
const MAX_OBJECTS_PER_REQUEST = 1000;

const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;

function bucketAndKey(input: RouteInput): { bucketId: string; key: string } {
  return { bucketId: input.params.bucket ?? '', key: input.params.key ?? '' };
}

/** Reads as Storage's super user (public buckets, signed URLs, bookkeeping). */
function asAdmin<T>(context: StorageContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(context.pool, work);
}

/**
 * The object a read route serves, found as Storage does: in a public bucket anyone may read;
 * otherwise only a caller with a valid JWT, and RLS decides which objects they see.
 */
async function readableObject(
  context: StorageContext,
  input: RouteInput,
  publicRoute: boolean,
): Promise<ObjectRow> {
  const { bucketId, key } = bucketAndKey(input);
  const bucket = await findBucketAsAdmin(context, bucketId);
  if (!bucket || (publicRoute && !bucket.public)) throw storageErrors.noSuchBucket();
  if (!input.caller.authenticated && !bucket.public) throw storageErrors.noSuchBucket();
  assertValidKey(key);
  if (bucket.public) return asAdmin(context, (tx) => mustFindObject(tx, bucketId, key));
  return asCaller(context, input.caller, input.scope, (tx) => mustFindObject(tx, bucketId, key));
}

async function upload(context: StorageContext, input: RouteInput, upsert: boolean) {
  const { bucketId, key } = bucketAndKey(input);
  const row = await storeUpload(context, input.request, {
    bucketId,
    key,
    caller: input.caller,
    owner: input.caller.owner,
    upsert,
    scope: input.scope,
  });
  return json({ Id: row.id, Key: `${bucketId}/${key}` });
}

async function download(context: StorageContext, input: RouteInput, publicRoute: boolean) {
  const object = await readableObject(context, input, publicRoute);
  return renderAsset(context.store, input.request, object, {
    download: input.url.searchParams.get('download'),
  });
}

async function removeOne(context: StorageContext, input: RouteInput) {
  const { bucketId, key } = bucketAndKey(input);
  assertValidKey(key);
  const removed = await transaction(context.pool, async (tx) => {
    const existing = await findObject(tx, bucketId, key, { forUpdate: true });
    if (!existing) throw storageErrors.noSuchKey();
    await actAs(tx, input.caller, input.scope);
    const [deleted] = await deleteObjects(tx, bucketId, [key]);
    if (!deleted) throw storageErrors.accessDenied('Access denied');
    return deleted;
  });
  await context.store.removeVersions([removed]);
  return json({ message: 'Successfully deleted' });
}

async function removeMany(context: StorageContext, input: RouteInput) {
  const bucketId = input.params.bucket ?? '';
  const prefixes = field.requiredStringArray(await readJsonObject(input.request), 'prefixes');
  if (prefixes.length === 0) {
    throw storageErrors.invalidRequest('body/prefixes must NOT have fewer than 1 items');
  }
  if (prefixes.length > MAX_OBJECTS_PER_REQUEST) {
    throw storageErrors.invalidRequest(
      `Bulk object requests are limited to ${MAX_OBJECTS_PER_REQUEST} objects per request.`,
    );
  }
  const removed = await asCaller(context, input.caller, input.scope, (tx) =>
    deleteObjects(tx, bucketId, prefixes),
  );
  await context.store.removeVersions(removed);
  return json(removed);
}

async function list(context: StorageContext, input: RouteInput) {
  const bucketId = input.params.bucket ?? '';
  const body = await readJsonObject(input.request);
  const prefix = field.requiredString(body, 'prefix');
  const limit = field.optionalInteger(body, 'limit', 1) ?? 100;
  const offset = field.optionalInteger(body, 'offset', 0) ?? 0;
  const search = field.optionalString(body, 'search') ?? '';
  const sortBy = field.optionalSortBy(body, SORT_COLUMNS, { columnRequired: false });
  const column = sortBy?.column ?? 'name';
  const order = sortBy?.order ?? 'asc';
  const entries = await asCaller(context, input.caller, input.scope, (tx) =>
    searchObjects(tx, bucketId, prefix, {
      limit,
      offset,
      search,
      sortColumn: column,
      sortOrder: order,
    }),
  );
  return json(entries);
}

async function info(context: StorageContext, input: RouteInput, publicRoute: boolean) {
  return renderInfo(await readableObject(context, input, publicRoute));
}

async function head(context: StorageContext, input: RouteInput, publicRoute: boolean) {
  return renderHead(await readableObject(context, input, publicRoute));
}

export function objectRoutes(context: StorageContext): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/object/list/:bucket',
      operation: 'storage.object.list',
      access: 'jwt',
      handler: (input) => list(context, input),
    },
    {
      method: 'POST',
      pattern: '/object/list-v2/:bucket',
      operation: 'storage.object.list_v2',
      access: 'jwt',
      handler: (input) => listV2(context, input),
    },
    {
      method: 'POST',
      pattern: '/object/move',
      operation: 'storage.object.move',
      access: 'jwt',
      handler: (input) => moveObject(context, input),
    },
    {
      method: 'POST',
      pattern: '/object/copy',
      operation: 'storage.object.copy',
      access: 'jwt',
      handler: (input) => copyObject(context, input),
    },
    {
      method: 'GET',
      pattern: '/object/public/:bucket/*',
      operation: 'storage.object.get_public',
      access: 'public',
      handler: (input) => download(context, input, true),
    },
    {
      method: 'HEAD',
      pattern: '/object/public/:bucket/*',
      operation: 'storage.object.info_public',
      access: 'public',
      handler: (input) => head(context, input, true),
    },
    {
      method: 'GET',
      pattern: '/object/info/public/:bucket/*',
      operation: 'storage.object.info_public',
      access: 'public',
      handler: (input) => info(context, input, true),
    },
    {
      method: 'GET',
      pattern: '/object/info/authenticated/:bucket/*',
      operation: 'object.get_authenticated_info',
      access: 'jwt',
      handler: (input) => info(context, input, false),
    },
    {
      method: 'GET',
      pattern: '/object/info/:bucket/*',
      operation: 'object.get_authenticated_info',
      access: 'jwt-optional',
      handler: (input) => info(context, input, false),
    },
    {
      method: 'GET',
      pattern: '/object/authenticated/:bucket/*',
      operation: 'storage.object.get_authenticated',
      access: 'jwt',
      handler: (input) => download(context, input, false),
    },
    {
      method: 'HEAD',
      pattern: '/object/authenticated/:bucket/*',
      operation: 'object.head_authenticated_info',
      access: 'jwt',
      handler: (input) => head(context, input, false),
    },
    {
      method: 'GET',
      pattern: '/object/:bucket/*',
      operation: 'storage.object.get_authenticated',
      access: 'jwt-optional',
      handler: (input) => download(context, input, false),
    },
    {
      method: 'HEAD',
      pattern: '/object/:bucket/*',
      operation: 'object.head_authenticated_info',
      access: 'jwt-optional',
      handler: (input) => head(context, input, false),
    },
    {
      method: 'POST',
      pattern: '/object/:bucket/*',
      operation: 'storage.object.upload',
      access: 'jwt',
      handler: (input) => upload(context, input, input.request.headers.get('x-upsert') === 'true'),
    },
    {
      method: 'PUT',
      pattern: '/object/:bucket/*',
      operation: 'storage.object.upload_update',
      access: 'jwt',
      handler: (input) => upload(context, input, true),
    },
    {
      method: 'DELETE',
      pattern: '/object/:bucket/*',
      operation: 'storage.object.delete',
      access: 'jwt',
      handler: (input) => removeOne(context, input),
    },
    {
      method: 'DELETE',
      pattern: '/object/:bucket',
      operation: 'storage.object.delete_many',
      access: 'jwt',
      handler: (input) => removeMany(context, input),
    },
  ];
}
