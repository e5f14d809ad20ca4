import type { Db } from './db.ts';
import { forbidden } from './errors.ts';
import { findOneTimeToken } from './one-time-tokens.ts';
import type { AuthSettings } from './settings.ts';
import { findUserByEmail, findUserById, isBanned, type User } from './users.ts';

/**
 * Finding whose e-mail token a verification presents, as GoTrue's verifyTokenHash (links and
 * token hashes) and verifyUserAndToken (an address and its code) do, with their errors.
 */

export type VerifyType = 'signup' | 'invite' | 'recovery' | 'magiclink' | 'email_change' | 'email';

/** The verification type once `email` is resolved to signup or magiclink. */
export type ResolvedType = Exclude<VerifyType, 'email'>;

export const EMAIL_VERIFY_TYPES = new Set<string>([
  'signup',
  'invite',
  'recovery',
  'magiclink',
  'email_change',
  'email',
]);

const linkExpired = () => forbidden('otp_expired', 'Email link is invalid or has expired');
export const tokenExpired = () => forbidden('otp_expired', 'Token has expired or is invalid');

function isExpired(settings: AuthSettings, sentAt: Date | null): boolean {
  return sentAt === null || Date.now() > sentAt.getTime() + settings.otpExpirySeconds * 1000;
}

function matches(
  settings: AuthSettings,
  hash: string,
  expected: string | null,
  sentAt: Date | null,
) {
  if (!expected || isExpired(settings, sentAt)) return false;
  return hash === expected || `pkce_${hash}` === expected;
}

/** The user a token hash belongs to; `email` type resolves to signup or magiclink. */
export async function userByTokenHash(
  db: Db,
  settings: AuthSettings,
  type: VerifyType,
  hash: string,
): Promise<{ user: User; type: ResolvedType }> {
  const types = {
    email: ['confirmation_token', 'recovery_token'],
    signup: ['confirmation_token'],
    invite: ['confirmation_token'],
    recovery: ['recovery_token'],
    magiclink: ['recovery_token'],
    email_change: ['email_change_token_current', 'email_change_token_new'],
  } as const;
  const token = await findOneTimeToken(db, hash, [...types[type]]);
  const user = token ? await findUserById(db, token.user_id) : undefined;
  if (!user) throw linkExpired();
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');

  let resolved: ResolvedType = type === 'email' ? 'signup' : type;
  let sentAt = user.confirmation_sent_at;
  if (type === 'email' && user.recovery_token === hash) resolved = 'magiclink';
  if (resolved === 'recovery' || resolved === 'magiclink') sentAt = user.recovery_sent_at;
  if (resolved === 'email_change') sentAt = user.email_change_sent_at;
  if (isExpired(settings, sentAt)) throw linkExpired();
  return { user, type: resolved };
}

/** verifyOtp({ email, token, type }): the OTP is checked against the user's stored hashes. */
export async function userByEmailAndOtp(
  db: Db,
  settings: AuthSettings,
  type: VerifyType,
  email: string,
  hash: string,
): Promise<{ user: User; type: ResolvedType }> {
  let user: User | undefined;
  if (type === 'email_change') {
    const { rows } = await db.query<{ id: string }>(
      `select id from auth.users
        where is_sso_user = false and coalesce(aud, $3) = $3
          and (lower(email_change) = $1 or lower(email) = $1)
          and $2 in (email_change_token_current, email_change_token_new,
                     'pkce_' || email_change_token_current, 'pkce_' || email_change_token_new)
        limit 1`,
      [email, hash, settings.audience],
    );
    user = rows[0] ? await findUserById(db, rows[0].id) : undefined;
  } else {
    user = await findUserByEmail(db, email, settings.audience);
  }
  if (!user) throw tokenExpired();
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');

  const confirmation = matches(settings, hash, user.confirmation_token, user.confirmation_sent_at);
  const recovery = matches(settings, hash, user.recovery_token, user.recovery_sent_at);
  switch (type) {
    case 'email':
      if (confirmation) return { user, type: 'signup' };
      if (recovery) return { user, type: 'magiclink' };
      throw tokenExpired();
    case 'signup':
    case 'invite':
      if (confirmation) return { user, type };
      throw tokenExpired();
    case 'recovery':
    case 'magiclink':
      if (recovery) return { user, type };
      throw tokenExpired();
    case 'email_change': {
      const sentAt = user.email_change_sent_at;
      if (
        matches(settings, hash, user.email_change_token_current, sentAt) ||
        matches(settings, hash, user.email_change_token_new, sentAt)
      ) {
        return { user, type };
      }
      throw tokenExpired();
    }
  }
}
