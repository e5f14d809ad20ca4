import type { ByteRange, ObjectStore } from './disk.ts';
import { StorageApiError } from './errors.ts';
import type { ObjectRow } from './object-rows.ts';

/**
 * How Storage answers for an object's bytes (renderer/asset.ts), its headers (head.ts) and its
 * description (info.ts).
 */

interface RenderOptions {
  /** `?download` / `?download=name`: serve as an attachment. */
  download?: string | null;
  /** Signed URLs carry their expiry instead of the object's cache-control. */
  expires?: Date;
}

/** Browsers must not render uploaded HTML as a page of ours. */
function safeContentType(mimetype: string | undefined): string | undefined {
  return mimetype?.includes('text/html') ? 'text/plain' : mimetype;
}

function baseHeaders(object: ObjectRow): Headers {
  const metadata = object.metadata ?? {};
  // Uploaded bytes are served as the type their uploader claimed, never as what a browser
  // guesses from them: "image/png" that holds a page must not be run as one. (An addition to
  // Storage's headers, which do not include it.)
  const headers = new Headers({ 'x-content-type-options': 'nosniff' });
  const contentType = safeContentType(metadata.mimetype);
  if (contentType) headers.set('content-type', contentType);
  if (metadata.eTag) headers.set('etag', metadata.eTag);
  const lastModified = metadata.lastModified ? new Date(metadata.lastModified) : undefined;
  if (lastModified && !Number.isNaN(lastModified.getTime())) {
    headers.set('last-modified', lastModified.toUTCString());
  }
  return headers;
}

function parseRange(header: string, size: number): ByteRange {
  const invalid = () =>
    new StorageApiError(416, 'InvalidRange', 'invalid range provided', 'invalid_range', 416);
  const match = /^bytes=(\d*)-(\d*)$/.exec(header);
  if (!match || size <= 0 || (!match[1] && !match[2])) throw invalid();
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (!Number.isSafeInteger(suffix) || suffix <= 0) throw invalid();
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : size - 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start > end || start >= size) {
    throw invalid();
  }
  return { start, end: Math.min(end, size - 1) };
}

function contentDisposition(download: string): string {
  if (download === '') return 'attachment;';
  const encoded = encodeURIComponent(download);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
}

/** The object's bytes, honouring If-None-Match and a single byte Range as Storage does. */
export async function renderAsset(
  store: ObjectStore,
  request: Request,
  object: ObjectRow,
  options: RenderOptions = {},
): Promise<Response> {
  const version = object.version ?? '';
  let size: number;
  try {
    size = await store.size(object.bucket_id, object.name, version);
  } catch {
    // The row outlived its bytes: Storage's answer when the backend has no such file.
    return new StorageApiError(
      404,
      'NoSuchKey',
      'The resource was not found',
      'Not found',
    ).toResponse({
      'cache-control': 'no-store',
    });
  }
  const headers = baseHeaders(object);
  headers.set('accept-ranges', 'bytes');
  headers.set('x-robots-tag', 'none');
  if (options.expires) headers.set('expires', options.expires.toUTCString());
  else if (object.metadata?.cacheControl)
    headers.set('cache-control', object.metadata.cacheControl);
  if (options.download !== undefined && options.download !== null) {
    headers.set('content-disposition', contentDisposition(options.download));
  }

  const eTag = object.metadata?.eTag;
  if (eTag && request.headers.get('if-none-match') === eTag) {
    return new Response(null, { status: 304, headers });
  }
  const rangeHeader = request.headers.get('range');
  if (rangeHeader) {
    const range = parseRange(rangeHeader, size);
    headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`);
    headers.set('content-length', String(range.end - range.start + 1));
    return new Response(store.read(object.bucket_id, object.name, version, range), {
      status: 206,
      headers,
    });
  }
  headers.set('content-length', String(size));
  return new Response(store.read(object.bucket_id, object.name, version), { status: 200, headers });
}

/** HEAD: the object's headers without its bytes. */
export function renderHead(object: ObjectRow): Response {
  const headers = baseHeaders(object);
  headers.set('accept-ranges', 'bytes');
  headers.set('x-robots-tag', 'none');
  const metadata = object.metadata ?? {};
  if (metadata.cacheControl) headers.set('cache-control', metadata.cacheControl);
  if (metadata.contentLength !== undefined) {
    headers.set('content-length', String(metadata.contentLength));
  }
  return new Response(null, { status: 200, headers });
}

/** GET /object/info: what supabase-js's `info()` reads. */
export function renderInfo(object: ObjectRow): Response {
  const metadata = object.metadata ?? {};
  const headers = baseHeaders(object);
  headers.set('content-type', 'application/json');
  if (metadata.cacheControl) headers.set('cache-control', metadata.cacheControl);
  const body = {
    id: object.id,
    name: object.name,
    version: object.version,
    bucket_id: object.bucket_id,
    size: metadata.size ?? null,
    content_type: metadata.mimetype ?? null,
    cache_control: metadata.cacheControl ?? null,
    etag: metadata.eTag ?? null,
    metadata: object.user_metadata,
    last_modified: object.updated_at,
    created_at: object.created_at,
  };
  return new Response(JSON.stringify(body), { status: 200, headers });
}
