import { json } from '../http.ts';
import { asCaller, type StorageContext } from './context.ts';
import { actAs, testPermission, transaction } from './db.ts';
import { storageErrors } from './errors.ts';
import { assertValidKey } from './names.ts';
import { findObjectNames, insertObject, mustFindObject, upsertObject } from './object-rows.ts';
import { renderAsset } from './render.ts';
import { field, readJsonObject } from './request-body.ts';
import type { Route, RouteInput } from './router.ts';
import { storeUpload } from './uploads.ts';
import { assertValidExpiresIn, signUrlToken, verifyUrlToken } from './url-tokens.ts';

/** Storage's default lifetime of a signed upload URL (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
const UPLOAD_URL_EXPIRES_IN = 2 * 60 * 60;

function target(input: RouteInput): { bucketId: string; key: string; url: string } {
  const bucketId = input.params.bucket ?? '';
  const key = input.params.key ?? '';
  return { bucketId, key, url: `${bucketId}/${key}` };
}

function requiredToken(input: RouteInput): string {
  const token = input.url.searchParams.get('token');
  if (!token) throw storageErrors.invalidRequest("querystring must have required property 'token'");
  return token;
}

async function readExpiresIn(
  request: Request,
): Promise<{ expiresIn: number; body: Record<string, unknown> }> {
  const body = await readJsonObject(request);
  if (body.expiresIn === undefined) {
    throw storageErrors.invalidRequest("body must have required property 'expiresIn'");
  }
  assertValidExpiresIn(body.expiresIn);
  return { expiresIn: body.expiresIn, body };
}

/** A download link for one object the caller can see. */
async function signOne(context: StorageContext, input: RouteInput) {
  const { bucketId, key, url } = target(input);
  const { expiresIn } = await readExpiresIn(input.request);
  assertValidKey(key);
  await asCaller(context, input.caller, input.scope, (tx) => mustFindObject(tx, bucketId, key));
  const token = await signUrlToken(context.jwtSecret, { url, scope: 'download' }, expiresIn);
  return json({ signedURL: `/object/sign/${url}?token=${token}` });
}

/** Download links for many objects; the ones the caller cannot see get an error entry. */
async function signMany(context: StorageContext, input: RouteInput) {
  const bucketId = input.params.bucket ?? '';
  const { expiresIn, body } = await readExpiresIn(input.request);
  const paths = field.requiredStringArray(body, 'paths');
  const visible = await asCaller(context, input.caller, input.scope, (tx) =>
    findObjectNames(tx, bucketId, paths),
  );
  const entries = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path,
          signedURL: null,
        };
      }
      const url = `${bucketId}/${path}`;
      const token = await signUrlToken(context.jwtSecret, { url, scope: 'download' }, expiresIn);
      return { error: null, path, signedURL: `/object/sign/${url}?token=${token}` };
    }),
  );
  return json(entries);
}

/** Serving a signed download link: the token alone authorises it. */
async function getSigned(context: StorageContext, input: RouteInput) {
  const { bucketId, key, url } = target(input);
  const claims = await verifyUrlToken(context.jwtSecret, requiredToken(input), {
    url,
    scope: 'download',
  });
  const object = await transaction(context.pool, (tx) => mustFindObject(tx, bucketId, key));
  return renderAsset(context.store, input.request, object, {
    download: input.url.searchParams.get('download'),
    expires: new Date((claims.exp ?? 0) * 1000),
  });
}

/** An upload link, issued only if RLS would let the caller write that object now. */
async function signUpload(context: StorageContext, input: RouteInput) {
  const { bucketId, key, url } = target(input);
  assertValidKey(key);
  const upsert = input.request.headers.get('x-upsert') === 'true';
  const contentLength = Number(input.request.headers.get('content-length'));
  await testPermission(context.pool, async (tx) => {
    await actAs(tx, input.caller, input.scope);
    await (upsert ? upsertObject : insertObject)(tx, {
      bucketId,
      name: key,
      owner: input.caller.owner,
      version: '1',
      metadata: {
        mimetype: input.request.headers.get('content-type') ?? undefined,
        contentLength: Number.isSafeInteger(contentLength) ? contentLength : undefined,
      },
      userMetadata: undefined,
    });
  });
  const token = await signUrlToken(
    context.jwtSecret,
    { owner: input.caller.owner, url, upsert, scope: 'upload' },
    UPLOAD_URL_EXPIRES_IN,
  );
  return json({ url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** Uploading through a signed link: written as Storage's super user, owned by the signer. */
async function uploadSigned(context: StorageContext, input: RouteInput) {
  const { bucketId, key, url } = target(input);
  const claims = await verifyUrlToken(context.jwtSecret, requiredToken(input), {
    url,
    scope: 'upload',
  });
  await storeUpload(context, input.request, {
    bucketId,
    key,
    caller: undefined,
    owner: claims.owner,
    upsert: claims.upsert === true,
    scope: input.scope,
  });
  return json({ Key: url });
}

export function signedUrlRoutes(context: StorageContext): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/object/sign/:bucket',
      operation: 'storage.object.sign_many',
      access: 'jwt',
      handler: (input) => signMany(context, input),
    },
    {
      method: 'POST',
      pattern: '/object/sign/:bucket/*',
      operation: 'storage.object.sign',
      access: 'jwt',
      handler: (input) => signOne(context, input),
    },
    {
      method: 'GET',
      pattern: '/object/sign/:bucket/*',
      operation: 'storage.object.get_signed',
      access: 'public',
      handler: (input) => getSigned(context, input),
    },
    {
      method: 'POST',
      pattern: '/object/upload/sign/:bucket/*',
      operation: 'storage.object.sign_upload_url',
      access: 'jwt',
      handler: (input) => signUpload(context, input),
    },
    {
      method: 'PUT',
      pattern: '/object/upload/sign/:bucket/*',
      operation: 'storage.object.upload_signed',
      access: 'public',
      handler: (input) => uploadSigned(context, input),
    },
  ];
}
