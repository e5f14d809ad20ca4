import { randomUUID } from 'node:crypto';
import type { Caller } from './caller.ts';
import { mustFindBucketAsAdmin, type RequestScope, type StorageContext } from './context.ts';
import { actAs, actAsAdmin, lockObjectKey, testPermission, transaction } from './db.ts';
import { readIncomingFile } from './incoming-file.ts';
import { assertValidKey, isEmptyFolderPlaceholder } from './names.ts';
import {
  findObject,
  insertObject,
  upsertObject,
  type ObjectMetadata,
  type ObjectRow,
  type ObjectWrite,
} from './object-rows.ts';

/**
 * Storing an uploaded object (storage/uploader.ts): refuse early what the bucket forbids
 * (size, MIME type) and what RLS forbids, then stream the bytes to disk, then record the row
 * as the caller and move the bytes into place in the same transaction. The replaced version's
 * bytes are deleted only once the new row is committed.
 */

export interface UploadRequest {
  bucketId: string;
  key: string;
  /** Whom RLS judges the write for; undefined writes as Storage's super user (signed uploads). */
  caller: Caller | undefined;
  owner: string | undefined;
  upsert: boolean;
  scope: RequestScope;
}

function write(
  request: UploadRequest,
  version: string,
  metadata: Partial<ObjectMetadata>,
  userMetadata: Record<string, unknown> | undefined,
): ObjectWrite {
  return {
    bucketId: request.bucketId,
    name: request.key,
    owner: request.owner,
    version,
    metadata,
    userMetadata,
  };
}

export async function storeUpload(
  context: StorageContext,
  httpRequest: Request,
  request: UploadRequest,
): Promise<ObjectRow> {
  const bucket = await mustFindBucketAsAdmin(context, request.bucketId);
  const maxFileSize = isEmptyFolderPlaceholder(request.key)
    ? 0
    : Math.min(bucket.file_size_limit ?? Infinity, context.fileSizeLimit);
  const file = await readIncomingFile(httpRequest, {
    objectName: request.key,
    maxFileSize,
    allowedMimeTypes: bucket.allowed_mime_types ?? [],
  });
  assertValidKey(request.key);

  const { caller } = request;
  const saveRow = request.upsert ? upsertObject : insertObject;
  if (caller) {
    // Ask RLS before accepting a single byte; policies may look at the declared metadata.
    await testPermission(context.pool, async (tx) => {
      await actAs(tx, caller, request.scope);
      await saveRow(
        tx,
        write(
          request,
          '1',
          { mimetype: file.mimeType, contentLength: file.declaredLength },
          file.userMetadata,
        ),
      );
    });
  }

  const written = await context.store.writeTemp(file.chunks, maxFileSize);
  const version = randomUUID();
  let placed = false;
  let outcome: { row: ObjectRow; previous: ObjectRow | undefined };
  try {
    await file.finish();
    const metadata: ObjectMetadata = {
      eTag: written.eTag,
      size: written.size,
      mimetype: file.mimeType,
      cacheControl: file.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: written.size,
      httpStatusCode: 200,
    };
    outcome = await transaction(context.pool, async (tx) => {
      await lockObjectKey(tx, request.bucketId, request.key);
      const previous = await findObject(tx, request.bucketId, request.key, { forUpdate: true });
      if (caller) await actAs(tx, caller, request.scope);
      // Storage records `{}` for an upload without user metadata (info() reads it back so).
      const row = await saveRow(tx, write(request, version, metadata, { ...file.userMetadata }));
      await actAsAdmin(tx);
      await context.store.place(written, request.bucketId, request.key, version);
      placed = true;
      return { row, previous };
    });
  } catch (error) {
    // Nothing was committed: neither the temporary file nor a placed one may outlive the row.
    if (placed) await context.store.remove(request.bucketId, request.key, version);
    else await context.store.discardTemp(written);
    throw error;
  }
  const { row, previous } = outcome;
  if (previous) await context.store.removeVersions([previous]);
  return row;
}
