import pg from 'pg';
import { json } from '../http.ts';

/**
 * Supabase Storage's error answers. Storage renders every failure as
 * `{ statusCode, code, error, message }` where `statusCode` is the *logical* status as a string
 * ("404", "409", "413"…) while the HTTP status is 400 for anything short of a server fault —
 * supabase-js reads both (`error.status` is the HTTP one, `error.statusCode` the body's).
 */
export class StorageApiError extends Error {
  constructor(
    /** The logical status Storage puts in the body. */
    readonly statusCode: number,
    /** Storage's ErrorCode (NoSuchKey, InvalidJWT…). */
    readonly code: string,
    message: string,
    /** The legacy `error` field; Storage falls back to the code. */
    readonly errorName: string = code,
    /** Storage answers 400 unless told otherwise (server faults keep 500). */
    readonly httpStatus: number = statusCode === 500 ? 500 : 400,
  ) {
    super(message);
    this.name = 'StorageApiError';
  }

  toResponse(headers: Record<string, string> = {}): Response {
    return json(
      {
        statusCode: String(this.statusCode),
        code: this.code,
        error: this.errorName,
        message: this.message,
      },
      this.httpStatus,
      headers,
    );
  }
}

export const storageErrors = {
  noSuchBucket: () =>
    new StorageApiError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageApiError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  bucketNotEmpty: () =>
    new StorageApiError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  keyAlreadyExists: () =>
    new StorageApiError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () =>
    new StorageApiError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  resourceAlreadyExists: () =>
    new StorageApiError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  accessDenied: (message = 'Access denied', httpStatus?: number) =>
    new StorageApiError(403, 'AccessDenied', message, 'Unauthorized', httpStatus),
  invalidJwt: (message = 'Invalid JWT') => new StorageApiError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageApiError(400, 'InvalidSignature', message),
  expiredSignature: () =>
    new StorageApiError(400, 'ExpiredToken', 'The provided token has expired.'),
  invalidKey: (key: string, reason?: string) =>
    new StorageApiError(400, 'InvalidKey', `Invalid key: ${key}${reason ? ` ${reason}` : ''}`),
  invalidBucketName: () =>
    new StorageApiError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidMimeType: (mimeType: string) =>
    new StorageApiError(
      415,
      'InvalidMimeType',
      `mime type ${mimeType} is not supported`,
      'invalid_mime_type',
    ),
  entityTooLarge: (entity = 'object') =>
    new StorageApiError(
      413,
      'EntityTooLarge',
      `The ${entity} exceeded the maximum allowed size`,
      'Payload too large',
    ),
  invalidFileSizeLimit: () =>
    new StorageApiError(
      400,
      'InvalidRequest',
      'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    ),
  invalidParameter: (parameter: string) =>
    new StorageApiError(400, 'InvalidParameter', `Invalid Parameter ${parameter}`),
  noContentProvided: (message = 'No content provided') =>
    new StorageApiError(400, 'InvalidRequest', message),
  /** What Storage's schema validation (Fastify + Ajv) answers for a malformed request. */
  invalidRequest: (message: string) =>
    new StorageApiError(400, 'InvalidRequest', message, 'Bad Request'),
  routeNotFound: (method: string, url: string) =>
    new StorageApiError(
      404,
      'InvalidRequest',
      `Route ${method}:${url} not found`,
      'Not Found',
      404,
    ),
  internal: () => new StorageApiError(500, 'InternalError', 'Internal server error', 'Internal'),
};

/** Maps a Postgres failure to the answer Storage gives for it (storage/database/errors.ts). */
export function fromDatabaseError(error: unknown): StorageApiError | undefined {
  if (!(error instanceof pg.DatabaseError)) return undefined;
  switch (error.code) {
    case '42501':
      return storageErrors.accessDenied(
        error.message.includes('row-level security')
          ? 'new row violates row-level security policy'
          : error.message,
      );
    case '23505':
      return storageErrors.resourceAlreadyExists();
    case '23503':
      return error.detail?.includes('is still referenced from table')
        ? new StorageApiError(
            409,
            'ResourceReferenced',
            'The resource could not be updated or removed due to a foreign key constraint',
          )
        : new StorageApiError(404, 'InvalidRequest', 'The related resource does not exist');
    case '55P03':
      return new StorageApiError(423, 'ResourceLocked', 'The resource is locked');
    case '57014':
      return new StorageApiError(
        544,
        'DatabaseTimeout',
        'The connection to the database timed out',
        'DatabaseTimeout',
        544,
      );
    default:
      return new StorageApiError(500, 'DatabaseError', `database error, code: ${error.code}`);
  }
}

export function errorResponse(error: unknown): Response {
  if (error instanceof StorageApiError) return error.toResponse();
  const mapped = fromDatabaseError(error);
  if (mapped) {
    if (mapped.statusCode === 500) console.error(error);
    return mapped.toResponse();
  }
  console.error(error);
  return storageErrors.internal().toResponse();
}
