import { requireSignature } from './content-check.ts';
import { storageErrors } from './errors.ts';
import { MultipartReader, multipartBoundary } from './multipart.ts';
import { isEmptyFolderPlaceholder } from './names.ts';
import { chunksOf } from './request-body.ts';

/**
 * The file of an upload request, read the way Storage does (storage/uploader.ts): either a
 * multipart form (what supabase-js sends for a Blob/File/FormData, with `cacheControl` and
 * `metadata` fields before the file) or a raw body described by its headers. Only the envelope
 * is read here; the bytes stay in the request stream until the caller pulls `chunks`.
 */

export interface IncomingFile {
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | undefined;
  /** The size the client declared, for RLS checks before the bytes arrive. */
  declaredLength: number | undefined;
  chunks: AsyncIterable<Uint8Array>;
  /** Consumes whatever follows the file so the request ends cleanly. */
  finish(): Promise<void>;
}

/** Storage caps user metadata at 1 MiB. */
const MAX_USER_METADATA_BYTES = 1024 * 1024;
/** Other form fields are a few bytes (cacheControl, contentType). */
const MAX_FIELD_BYTES = 64 * 1024;

/** Storage's check: the type and subtype match an allowed entry, or the entry is `type/*`. */
export function assertAllowedMimeType(mimeType: string, allowed: string[]): void {
  const [type, subtype, ...rest] = mimeType.split('/');
  if (subtype === undefined || rest.length > 0) throw storageErrors.invalidMimeType(mimeType);
  for (const entry of allowed) {
    const [allowedType, allowedSubtype] = entry.split('/');
    if (allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype)) return;
  }
  throw storageErrors.invalidMimeType(mimeType);
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The x-metadata header: base64 of a JSON object (unreadable metadata is ignored, as in Storage). */
export function headerUserMetadata(header: string | null): Record<string, unknown> | undefined {
  if (!header) return undefined;
  if (header.length > (MAX_USER_METADATA_BYTES * 4) / 3) {
    throw storageErrors.entityTooLarge('user_metadata');
  }
  return parseJsonObject(Buffer.from(header, 'base64').toString('utf8'));
}

function declaredLengthOf(request: Request): number | undefined {
  const raw = request.headers.get('content-length');
  const value = raw === null ? NaN : Number(raw);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

async function* noChunks(): AsyncGenerator<Uint8Array> {}

export async function readIncomingFile(
  request: Request,
  options: { objectName: string; maxFileSize: number; allowedMimeTypes: string[] },
): Promise<IncomingFile> {
  const checkMime =
    options.allowedMimeTypes.length > 0 && !isEmptyFolderPlaceholder(options.objectName);
  const contentType = request.headers.get('content-type');
  const boundary = multipartBoundary(contentType);
  const declaredLength = declaredLengthOf(request);

  if (boundary) {
    if (!request.body) throw storageErrors.noContentProvided();
    const form = new MultipartReader(request.body, boundary);
    const fields = new Map<string, string>();
    for (;;) {
      const part = await form.nextPart();
      if (!part) throw storageErrors.noContentProvided();
      if (part.filename !== undefined) {
        const mimeType = fields.get('contentType') || part.contentType || 'text/plain';
        if (checkMime) assertAllowedMimeType(mimeType, options.allowedMimeTypes);
        const cacheTime = fields.get('cacheControl');
        const metadata = fields.get('metadata') ?? fields.get('userMetadata');
        return {
          mimeType,
          cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache',
          userMetadata: metadata === undefined ? undefined : parseJsonObject(metadata),
          // A form's length includes its envelope, so it says nothing exact about the file.
          declaredLength: undefined,
          chunks: checkMime ? requireSignature(mimeType, form.body()) : form.body(),
          finish: () => form.drain(),
        };
      }
      const limit =
        part.name === 'metadata' || part.name === 'userMetadata'
          ? MAX_USER_METADATA_BYTES
          : MAX_FIELD_BYTES;
      fields.set(
        part.name,
        await form.text(limit, () => storageErrors.entityTooLarge('user_metadata')),
      );
    }
  }

  const mimeType = contentType || 'application/octet-stream';
  if (checkMime) assertAllowedMimeType(mimeType, options.allowedMimeTypes);
  const userMetadata = headerUserMetadata(request.headers.get('x-metadata'));
  if (declaredLength !== undefined && declaredLength > options.maxFileSize) {
    throw storageErrors.entityTooLarge();
  }
  const chunks = request.body ? chunksOf(request.body) : noChunks();
  return {
    mimeType,
    cacheControl: request.headers.get('cache-control') ?? 'no-cache',
    userMetadata,
    declaredLength,
    chunks: checkMime ? requireSignature(mimeType, chunks) : chunks,
    finish: async () => {},
  };
}
