import { createHash } from 'node:crypto';
import type { Db } from './db.ts';
import { clearOneTimeTokens } from './one-time-tokens.ts';
import { deleteOtherSessions, deleteUserSessions } from './sessions.ts';
import {
  mergeMetadata,
  updateIdentityData,
  updateUser,
  upsertEmailIdentity,
  type User,
  type UserRow,
} from './users.ts';

/** The state transitions of a user that GoTrue's models perform (Confirm, UpdatePassword, …). */

/** Marks the e-mail address confirmed (models.User.Confirm). */
export async function confirmEmail(db: Db, user: UserRow): Promise<void> {
  await updateUser(db, user.id, {
    confirmation_token: '',
    email_confirmed_at: new Date(),
    raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, { email_verified: true }),
  });
  await clearOneTimeTokens(db, user.id);
}

export async function confirmPhone(db: Db, user: UserRow): Promise<void> {
  await updateUser(db, user.id, { confirmation_token: '', phone_confirmed_at: new Date() });
  await clearOneTimeTokens(db, user.id);
}

/** Identities that carry the confirmed address record it as verified (signupVerify). */
export async function markEmailIdentitiesVerified(db: Db, user: User): Promise<void> {
  for (const identity of user.identities) {
    if (!identity.email || !user.email || identity.email !== user.email) continue;
    await updateIdentityData(db, identity, { email_verified: true });
  }
}

/**
 * Stores a new password hash. Pending tokens are void afterwards, and every other session ends
 * (all of them when there is no current session), as models.User.UpdatePassword does.
 */
export async function updatePassword(
  db: Db,
  userId: string,
  encryptedPassword: string,
  keepSessionId: string | null,
): Promise<void> {
  await updateUser(db, userId, {
    encrypted_password: encryptedPassword,
    confirmation_token: '',
    confirmation_sent_at: null,
    recovery_token: '',
    recovery_sent_at: null,
    email_change_token_current: '',
    email_change_token_new: '',
    email_change_sent_at: null,
    phone_change_token: '',
    phone_change_sent_at: null,
    reauthentication_token: '',
    reauthentication_sent_at: null,
  });
  await clearOneTimeTokens(db, userId);
  if (keepSessionId) await deleteOtherSessions(db, userId, keepSessionId);
  else await deleteUserSessions(db, userId);
}

/** A recovery or magic-link token was used (models.User.Recover). */
export async function consumeRecovery(db: Db, userId: string): Promise<void> {
  await updateUser(db, userId, { recovery_token: '' });
  await clearOneTimeTokens(db, userId);
}

/** The pending address becomes the user's address (models.User.ConfirmEmailChange). */
export async function applyEmailChange(db: Db, user: UserRow): Promise<void> {
  const newEmail = user.email_change ?? '';
  await upsertEmailIdentity(db, user.id, newEmail, true);
  await updateUser(db, user.id, {
    email: newEmail,
    email_change: '',
    email_change_token_current: '',
    email_change_token_new: '',
    email_change_confirm_status: 0,
    is_anonymous: false,
  });
  await clearOneTimeTokens(db, user.id);
  if (user.email_confirmed_at === null) {
    await confirmEmail(db, { ...user, email: newEmail });
  }
}

/** A duration of 0 lifts the ban (models.User.Ban). */
export async function banUser(db: Db, userId: string, durationMs: number): Promise<void> {
  await updateUser(db, userId, {
    banned_until: durationMs === 0 ? null : new Date(Date.now() + durationMs),
  });
}

function obfuscate(userId: string, value: string): string {
  return createHash('sha256')
    .update(userId + value)
    .digest('base64url');
}

/** should_soft_delete: the row stays (for foreign keys) but can no longer be found or used. */
export async function softDeleteUser(db: Db, user: User): Promise<void> {
  await updateUser(db, user.id, {
    email: user.email ? obfuscate(user.id, user.email) : null,
    phone: user.phone ? obfuscate(user.id, user.phone).slice(0, 15) : null,
    email_change: user.email_change ? obfuscate(user.id, user.email_change) : '',
    phone_change: user.phone_change ? obfuscate(user.id, user.phone_change).slice(0, 15) : '',
    encrypted_password: null,
    confirmation_token: '',
    recovery_token: '',
    email_change_token_current: '',
    email_change_token_new: '',
    phone_change_token: '',
    deleted_at: new Date(),
    raw_user_meta_data: {},
    raw_app_meta_data: {},
  });
  await clearOneTimeTokens(db, user.id);
  for (const identity of user.identities) {
    await db.query(
      'update auth.identities set identity_data = $2, provider_id = $3, updated_at = now() where id = $1',
      [identity.id, '{}', obfuscate(user.id, `${identity.provider}:${identity.provider_id}`)],
    );
  }
  await db.query('delete from auth.mfa_factors where user_id = $1', [user.id]);
  await deleteUserSessions(db, user.id);
}
