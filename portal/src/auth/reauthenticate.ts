import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { parseTotpCode } from '@shortlane/shared/validation/totp.ts';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { signInAside } from '../features/two-factor/signInAside.ts';
import { MESSAGES_2FA } from '../features/two-factor/messages.ts';
import { authErrorMessage } from './authErrorMessage.ts';

export const WRONG_PASSWORD = 'The password is incorrect.';

/** What a second, short-lived client needs to sign in beside the portal's (see signInAside). */
export interface AsideAccess {
  env: SupabaseEnv;
  fetch: typeof fetch;
}

/** The user's verified TOTP factor, when two-factor authentication is on. */
function verifiedTotpFactorId(session: Session): string | null {
  const factor = (session.user.factors ?? []).find(
    (candidate) => candidate.status === 'verified' && candidate.factor_type === 'totp',
  );
  return factor?.id ?? null;
}

/** Whether the confirm-password modal must also ask for a two-factor code. */
export async function reauthenticationNeedsCode(supabase: SupabaseClient): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  return data.session != null && verifiedTotpFactorId(data.session) != null;
}

/**
 * The password check behind the confirm-password modal: signs in again as the current user, so
 * the session (and the request retried after it) carries a fresh password authentication.
 * With two-factor on, the new session must reach aal2 again: the password and the code are
 * checked on a client aside (the portal's session stays aal2 meanwhile, so no guard sends the
 * user to the code page), and the raised session then replaces the portal's.
 * Either way the replaced session is ended at Auth, so its refresh token is no longer usable.
 * Resolves with the message for the password field, `{ code }` for the code field, or null.
 */
export async function reauthenticate(
  supabase: SupabaseClient,
  answer: { password: string; code?: string },
  storage: Pick<Storage, 'setItem'>,
  aside: AsideAccess,
): Promise<string | { code: string } | null> {
  const { password } = answer;
  if (password === '') return 'The password field is required.';
  const { data } = await supabase.auth.getSession();
  const session = data.session;
  const email = session?.user.email;
  if (!session || !email) return MESSAGES.sessionExpired;

  const factorId = verifiedTotpFactorId(session);
  if (factorId == null) {
    const { error } = await supabase.auth.signInWithPassword({ email, password });
    if (error)
      return error.code === 'invalid_credentials' ? WRONG_PASSWORD : authErrorMessage(error);
  } else {
    const code = parseTotpCode(answer.code ?? '');
    if ('error' in code) return { code: code.error };
    const signedIn = await signInAside(aside.env, email, password, aside.fetch);
    if (signedIn instanceof Error) {
      return signedIn.code === 'invalid_credentials' ? WRONG_PASSWORD : authErrorMessage(signedIn);
    }
    const verified = await signedIn.client.auth.mfa.challengeAndVerify({
      factorId,
      code: code.code,
    });
    if (verified.error) return { code: MESSAGES_2FA.wrongCode };
    const { error } = await supabase.auth.setSession({
      access_token: verified.data.access_token,
      refresh_token: verified.data.refresh_token,
    });
    if (error) return authErrorMessage(error);
  }
  await endReplacedSession(supabase, session.access_token);
  storage.setItem(STORAGE_KEYS.passwordConfirmed, new Date().toISOString());
  return null;
}

/**
 * Ends the session the confirmation replaced (its own access token, scope local: no other
 * session of the user). A failure changes nothing for the user, who already holds the new one;
 * an impersonation token never reaches Auth (guardImpersonationLogout answers for it).
 */
async function endReplacedSession(supabase: SupabaseClient, accessToken: string): Promise<void> {
  const { error } = await supabase.auth.admin.signOut(accessToken, 'local');
  if (error) console.warn('The replaced session could not be ended:', error.message);
}
