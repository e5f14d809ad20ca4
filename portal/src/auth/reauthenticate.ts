import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { authErrorMessage } from './authErrorMessage.ts';

export const WRONG_PASSWORD = 'The password is incorrect.';

/**
 * The password check behind the confirm-password modal: signs in again as the current user, so
 * the session (and the request retried after it) carries a fresh password authentication.
 * Resolves with the message to show under the field, or null when the password was right.
 */
export async function reauthenticate(
  supabase: SupabaseClient,
  password: string,
  storage: Pick<Storage, 'setItem'>,
): Promise<string | null> {
  if (password === '') return 'The password field is required.';
  const { data } = await supabase.auth.getSession();
  const email = data.session?.user.email;
  if (!email) return MESSAGES.sessionExpired;
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) return error.code === 'invalid_credentials' ? WRONG_PASSWORD : authErrorMessage(error);
  storage.setItem(STORAGE_KEYS.passwordConfirmed, new Date().toISOString());
  return null;
}
