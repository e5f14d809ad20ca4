/**
 * Random aliases for new short links: base62 from the platform CSPRNG, and a retry loop for the
 * rare collision with an existing alias on the same domain.
 */

export const ALIAS_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const MIN_RANDOM_ALIAS_LENGTH = 7;
/** Far above anything needed; bounds the work a bad argument can ask for. */
export const MAX_RANDOM_ALIAS_LENGTH = 64;

// Bytes at or above 248 (= 4 × 62) are thrown away: keeping them would make the first 8
// characters of the alphabet more likely than the rest (modulo bias).
const UNBIASED_LIMIT = Math.floor(256 / ALIAS_ALPHABET.length) * ALIAS_ALPHABET.length;

/** `length` characters drawn uniformly from [0-9A-Za-z] with `crypto.getRandomValues`. */
export function randomAlias(length = MIN_RANDOM_ALIAS_LENGTH): string {
  if (
    !Number.isInteger(length) ||
    length < MIN_RANDOM_ALIAS_LENGTH ||
    length > MAX_RANDOM_ALIAS_LENGTH
  ) {
    throw new RangeError(
      `A random alias has ${MIN_RANDOM_ALIAS_LENGTH} to ${MAX_RANDOM_ALIAS_LENGTH} characters, not ${length}`,
    );
  }
  let alias = '';
  // A few spare bytes per round: each byte is kept with probability 248/256.
  const bytes = new Uint8Array(length + 8);
  while (alias.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= UNBIASED_LIMIT) continue;
      alias += ALIAS_ALPHABET[byte % ALIAS_ALPHABET.length];
      if (alias.length === length) break;
    }
  }
  return alias;
}

/** What an inserter returns when the alias is already taken (e.g. the RPC raised alias_taken). */
export const ALIAS_COLLISION: unique symbol = Symbol('alias collision');
export type AliasCollision = typeof ALIAS_COLLISION;

export class AliasExhaustedError extends Error {
  constructor(readonly attempts: number) {
    super(`No free random alias found after ${attempts} attempts`);
    this.name = 'AliasExhaustedError';
  }
}

export interface UniqueAliasOptions {
  /** How many aliases to try before giving up (default 5). */
  attempts?: number;
  /** Alias length (default 7). */
  length?: number;
  /** Where aliases come from (default randomAlias); tests pass a fixed sequence. */
  generate?: (length: number) => string;
}

export interface UniqueAliasResult<T> {
  alias: string;
  result: T;
  /** How many aliases were tried, the successful one included. */
  attempts: number;
}

/**
 * Tries fresh aliases until `tryInsert` stores one. The insert itself is the uniqueness check
 * (a unique index decides, so two concurrent creators cannot both win); a collision answer means
 * "try another", any thrown error is not a collision and ends the loop at once.
 */
export async function createWithUniqueAlias<T>(
  tryInsert: (alias: string) => Promise<T | AliasCollision>,
  {
    attempts = 5,
    length = MIN_RANDOM_ALIAS_LENGTH,
    generate = randomAlias,
  }: UniqueAliasOptions = {},
): Promise<UniqueAliasResult<T>> {
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a positive integer, not ${attempts}`);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const alias = generate(length);
    const result = await tryInsert(alias);
    if (result !== ALIAS_COLLISION) return { alias, result, attempts: attempt };
  }
  throw new AliasExhaustedError(attempts);
}
