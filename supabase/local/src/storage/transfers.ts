import { randomUUID } from 'node:crypto';
import { json } from '../http.ts';
import type { StorageContext } from './context.ts';
import { actAs, actAsAdmin, lockObjectKey, transaction, type Tx } from './db.ts';
import { storageErrors } from './errors.ts';
import { headerUserMetadata } from './incoming-file.ts';
import { assertValidKey } from './names.ts';
import {
  findObject,
  insertObject,
  mustFindObject,
  relocateObject,
  upsertObject,
  type ObjectRow,
} from './object-rows.ts';
import { field, readJsonObject } from './request-body.ts';
import type { RouteInput } from './router.ts';

/**
 * Moving and copying objects (POST /object/move, /object/copy). The caller must see the source
 * and be allowed by RLS to write the destination; the bytes get a new version at the destination
 * (a hard link where possible), and the old version's file goes only after the commit.
 */

interface Transfer {
  sourceBucket: string;
  sourceKey: string;
  destinationBucket: string;
  destinationKey: string;
}

async function readTransfer(
  request: Request,
): Promise<{ transfer: Transfer; body: Record<string, unknown> }> {
  const body = await readJsonObject(request);
  const sourceBucket = field.requiredString(body, 'bucketId');
  const sourceKey = field.requiredString(body, 'sourceKey');
  const destinationKey = field.requiredString(body, 'destinationKey');
  const destinationBucket = field.optionalString(body, 'destinationBucket') || sourceBucket;
  assertValidKey(destinationKey);
  return { transfer: { sourceBucket, sourceKey, destinationBucket, destinationKey }, body };
}

/** Where a row's bytes are; a row without a version (made over SQL) has none to copy. */
function sourceVersion(row: ObjectRow): { bucketId: string; key: string; version: string } {
  if (!row.version) throw storageErrors.noSuchKey();
  return { bucketId: row.bucket_id, key: row.name, version: row.version };
}

/** Locks both keys in a fixed order so two transfers between the same keys cannot deadlock. */
async function lockTransfer(tx: Tx, transfer: Transfer): Promise<void> {
  const keys: [string, string][] = [
    [transfer.sourceBucket, transfer.sourceKey],
    [transfer.destinationBucket, transfer.destinationKey],
  ];
  keys.sort((a, b) => a.join('/').localeCompare(b.join('/')));
  for (const [bucketId, key] of keys) await lockObjectKey(tx, bucketId, key);
}

export async function moveObject(context: StorageContext, input: RouteInput) {
  const { transfer } = await readTransfer(input.request);
  const version = randomUUID();
  let duplicated = false;
  let outcome: { source: ObjectRow; moved: ObjectRow };
  try {
    outcome = await transaction(context.pool, async (tx) => {
      await lockTransfer(tx, transfer);
      const source = await findObject(tx, transfer.sourceBucket, transfer.sourceKey, {
        forUpdate: true,
      });
      await actAs(tx, input.caller, input.scope);
      if (!source || !(await findObject(tx, transfer.sourceBucket, transfer.sourceKey))) {
        throw storageErrors.noSuchKey();
      }
      const sameKey =
        transfer.sourceBucket === transfer.destinationBucket &&
        transfer.sourceKey === transfer.destinationKey;
      if (sameKey) return { source, moved: source };
      const moved = await relocateObject(
        tx,
        { bucketId: transfer.sourceBucket, name: transfer.sourceKey },
        {
          bucketId: transfer.destinationBucket,
          name: transfer.destinationKey,
          version,
          owner: input.caller.owner,
        },
      );
      if (!moved) throw storageErrors.noSuchKey();
      await actAsAdmin(tx);
      await context.store.duplicate(sourceVersion(source), {
        bucketId: transfer.destinationBucket,
        key: transfer.destinationKey,
        version,
      });
      duplicated = true;
      return { source, moved };
    });
  } catch (error) {
    // Not committed: the new version's file must not outlive the transaction.
    if (duplicated) {
      await context.store.remove(transfer.destinationBucket, transfer.destinationKey, version);
    }
    throw error;
  }
  const { source, moved } = outcome;
  if (duplicated) await context.store.removeVersions([source]);
  return json({ message: 'Successfully moved', Id: moved.id, Key: moved.name });
}

export async function copyObject(context: StorageContext, input: RouteInput) {
  const { transfer, body } = await readTransfer(input.request);
  const copyMetadata = field.optionalBoolean(body, 'copyMetadata') ?? true;
  const overrides = (body.metadata ?? {}) as { cacheControl?: unknown; mimetype?: unknown };
  const upsert = input.request.headers.get('x-upsert') === 'true';
  const headerMetadata = input.request.headers.get('x-metadata');
  const version = randomUUID();
  let duplicated = false;
  let outcome: { copied: ObjectRow; previous: ObjectRow | undefined };
  try {
    outcome = await transaction(context.pool, async (tx) => {
      await lockTransfer(tx, transfer);
      const previous = await findObject(tx, transfer.destinationBucket, transfer.destinationKey, {
        forUpdate: true,
      });
      await actAs(tx, input.caller, input.scope);
      const source = await mustFindObject(tx, transfer.sourceBucket, transfer.sourceKey);
      const metadata = { ...source.metadata, lastModified: new Date().toISOString() };
      if (!copyMetadata) {
        if (typeof overrides.cacheControl === 'string')
          metadata.cacheControl = overrides.cacheControl;
        if (typeof overrides.mimetype === 'string') metadata.mimetype = overrides.mimetype;
      }
      const userMetadata = copyMetadata
        ? (source.user_metadata ?? undefined)
        : headerUserMetadata(headerMetadata);
      const write = upsert ? upsertObject : insertObject;
      const copied = await write(tx, {
        bucketId: transfer.destinationBucket,
        name: transfer.destinationKey,
        owner: input.caller.owner,
        version,
        metadata,
        userMetadata,
      });
      await actAsAdmin(tx);
      await context.store.duplicate(sourceVersion(source), {
        bucketId: transfer.destinationBucket,
        key: transfer.destinationKey,
        version,
      });
      duplicated = true;
      return { copied, previous };
    });
  } catch (error) {
    // Not committed: the new version's file must not outlive the transaction.
    if (duplicated) {
      await context.store.remove(transfer.destinationBucket, transfer.destinationKey, version);
    }
    throw error;
  }
  const { copied, previous } = outcome;
  if (previous) await context.store.removeVersions([previous]);
  return json({
    Id: copied.id,
    Key: `${transfer.destinationBucket}/${transfer.destinationKey}`,
    ...copied,
  });
}
