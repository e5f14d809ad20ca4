import { storageErrors } from './errors.ts';

/**
 * Storage's rules for bucket names and object keys (storage/limits.ts): S3-safe characters only.
 * On top of them, a key may not hold `.`/`..` segments or start with `/`, because bytes live on
 * disk under the key's path — Storage's file backend refuses the same keys.
 */

// The hyphen is last so it is a literal, not a range.
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
const MAX_BUCKET_NAME_LENGTH = 100;

const EMPTY_FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder';

export function isValidBucketName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_BUCKET_NAME_LENGTH &&
    VALID_BUCKET_NAME.test(name) &&
    name !== '.' &&
    name !== '..'
  );
}

export function assertValidBucketName(name: string | undefined): asserts name is string {
  if (name === undefined || !isValidBucketName(name)) throw storageErrors.invalidBucketName();
}

/** Why a key cannot name a file under the storage root, if it cannot. */
function unsafePathReason(key: string): string | undefined {
  if (key.includes('\0')) return 'contains null byte';
  if (key.startsWith('/')) return 'must be a relative path';
  if (key.split('/').some((segment) => segment === '.' || segment === '..')) {
    return 'contains dot path segment';
  }
  return undefined;
}

export function assertValidKey(key: string | undefined): asserts key is string {
  if (!key || !VALID_OBJECT_KEY.test(key)) throw storageErrors.invalidKey(key ?? '');
  const reason = unsafePathReason(key);
  if (reason) throw storageErrors.invalidKey(key, reason);
}

/** Storage's zero-byte marker that keeps an otherwise empty folder visible in listings. */
export function isEmptyFolderPlaceholder(key: string): boolean {
  return key.endsWith(EMPTY_FOLDER_PLACEHOLDER);
}
