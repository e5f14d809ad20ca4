import type { Session } from '@supabase/supabase-js';
import { impersonationOf, payloadOf } from '../impersonation/claims.ts';

/**
 * Whether a session still owes its second factor: signed in with the password (JWT `aal1`)
 * while the user has a verified factor (so Auth would raise it to `aal2`). The same reading as
 * supabase-js's mfa.getAuthenticatorAssuranceLevel(), done on the session at hand so it can run
 * inside onAuthStateChange (where calling back into the auth client would deadlock).
 * A staff member impersonating the user holds no code of theirs: never asked.
 */
export function secondFactorDue(session: Session | null): boolean {
  if (!session) return false;
  const hasVerifiedFactor = (session.user.factors ?? []).some(
    (factor) => factor.status === 'verified',
  );
  if (!hasVerifiedFactor || impersonationOf(session.access_token)) return false;
  return assuranceLevel(session.access_token) !== 'aal2';
}

/** The `aal` claim of an access token, or null when it has none or cannot be read. */
export function assuranceLevel(accessToken: string): string | null {
  const aal = payloadOf(accessToken)?.aal;
  return typeof aal === 'string' ? aal : null;
}
