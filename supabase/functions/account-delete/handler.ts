/**
 * account-delete: the signed-in user deletes their own account (settings/profile/delete).
 *
 *   POST { password }  → 200 { deleted: true, files_removed }
 *
 * The password is checked by Auth itself (a password grant for the user's current address), so
 * a stolen access token alone cannot delete an account. Then one database transaction,
 * app.delete_user_account, deletes the user and everything they own, anonymising what they made
 * in other people's accounts (see migration 20261122001500). Their stored files (photos, bulk
 * files) go last, through the Storage API, which deletes rows and bytes together; a failure
 * there is logged and leaves only unreachable files behind.
 *
 * An impersonation session may not delete the account it impersonates.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { callerOf } from '../_shared/caller.ts';
import { requireEnv } from '../_shared/env.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { invalid, readBody } from '../_shared/kiosk/request.ts';
import { impersonationNotAllowed, isImpersonation } from '../_shared/impersonation.ts';
import { permissionDenied } from '../_shared/kiosk/staff.ts';
import { asClaims } from '../_shared/sql.ts';
import { serviceClient } from '../_shared/supabase.ts';

export const PASSWORD_REQUIRED = 'The password field is required.';
export const WRONG_PASSWORD = 'The password is incorrect.';
export const IMPERSONATION_CANNOT_DELETE = 'An impersonation session cannot delete the account.';

function readPassword(body: Record<string, unknown>): string {
  const password = body.password;
  if (typeof password !== 'string' || password === '') throw invalid('password', PASSWORD_REQUIRED);
  return password;
}

/** A client with no session of its own, for the one password grant. */
function anonClient(): SupabaseClient {
  return createClient(requireEnv('SUPABASE_URL'), requireEnv('SUPABASE_ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

async function checkPassword(admin: SupabaseClient, userId: string, password: string) {
  const { data, error } = await admin.auth.admin.getUserById(userId);
  if (error?.status === 404 || (!error && !data.user)) {
    throw new HttpError(404, 'User not found', 'user_not_found');
  }
  if (error) throw error;
  const email = data.user.email;
  if (!email) throw invalid('password', WRONG_PASSWORD);
  const signIn = await anonClient().auth.signInWithPassword({ email, password });
  if (signIn.error?.code === 'invalid_credentials') throw invalid('password', WRONG_PASSWORD);
  if (signIn.error?.status === 429) {
    throw new HttpError(
      429,
      'Too many attempts. Wait a moment and try again.',
      'too_many_attempts',
    );
  }
  if (signIn.error) throw signIn.error;
}

async function removeFiles(admin: SupabaseClient, files: { bucket: string; path: string }[]) {
  const byBucket = new Map<string, string[]>();
  for (const { bucket, path } of files)
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), path]);
  let removed = 0;
  for (const [bucket, paths] of byBucket) {
    const { data, error } = await admin.storage.from(bucket).remove(paths);
    if (error) console.error(`account-delete: files left in ${bucket}`, paths, error);
    else removed += data.length;
  }
  return removed;
}

export function createAccountDeleteHandler(admin: () => SupabaseClient = serviceClient) {
  return handler(async (request) => {
    const { claims } = callerOf(request);
    if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw permissionDenied();
    if (isImpersonation(claims)) {
      throw impersonationNotAllowed(IMPERSONATION_CANNOT_DELETE);
    }
    const userId = claims.sub;
    const password = readPassword(await readBody(request));
    const client = admin();
    await checkPassword(client, userId, password);

    const files = await asClaims(
      { role: 'service_role' },
      (sql) =>
        sql<{ bucket: string; path: string }[]>`
          select bucket, path from app.delete_user_account(${userId})`,
    );
    const filesRemoved = await removeFiles(client, [...files]);
    return json({ deleted: true, files_removed: filesRemoved });
  });
}
