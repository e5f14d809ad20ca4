import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Db } from './db.ts';

/**
 * The secrets e-mails carry. A mail holds a short OTP; the database holds only
 * sha224(address + otp) — the "token hash" — in the user's *_token column and in
 * auth.one_time_tokens, where links (`?token=<hash>`) and verifyOtp({ token_hash }) find it.
 */

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'phone_change_token';

export function generateOtp(length: number): string {
  return String(randomInt(10 ** length)).padStart(length, '0');
}

export function tokenHash(address: string, otp: string): string {
  return createHash('sha224')
    .update(address + otp)
    .digest('hex');
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lower-case base32 characters, as GoTrue's refresh tokens are made of. */
export function secureAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => BASE32[byte % 32]).join('');
}

export async function clearOneTimeTokens(
  db: Db,
  userId: string,
  type?: OneTimeTokenType,
): Promise<void> {
  if (type) {
    await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [
      userId,
      type,
    ]);
  } else {
    await db.query('delete from auth.one_time_tokens where user_id = $1', [userId]);
  }
}

export async function storeOneTimeToken(
  db: Db,
  userId: string,
  type: OneTimeTokenType,
  hash: string,
  relatesTo: string,
): Promise<void> {
  await clearOneTimeTokens(db, userId, type);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, $3, $4, $5)`,
    [randomUUID(), userId, type, hash, relatesTo.toLowerCase()],
  );
}

export async function findOneTimeToken(
  db: Db,
  hash: string,
  types: OneTimeTokenType[],
): Promise<{ user_id: string; token_type: OneTimeTokenType } | undefined> {
  const { rows } = await db.query<{ user_id: string; token_type: OneTimeTokenType }>(
    `select user_id, token_type from auth.one_time_tokens
      where token_hash = $1 and token_type = any($2::auth.one_time_token_type[])
      limit 1`,
    [hash, types],
  );
  return rows[0];
}
