import type { Session } from '@supabase/supabase-js';

/**
 * Whether a session still owes its second factor: signed in with the password (JWT `aal1`)
 * while the user has a verified factor (so Auth would raise it to `aal2`). The same reading as
 * supabase-js's mfa.getAuthenticatorAssuranceLevel(), done on the session at hand so it can run
 * inside onAuthStateChange (where calling back into the auth client would deadlock).
 */
export function secondFactorDue(session: Session | null): boolean {
  if (!session) return false;
  const hasVerifiedFactor = (session.user.factors ?? []).some(
    (factor) => factor.status === 'verified',
  );
  return hasVerifiedFactor && assuranceLevel(session.access_token) !== 'aal2';
}

/** The `aal` claim of an access token, or null when it has none or cannot be read. */
export function assuranceLevel(accessToken: string): string | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    if (typeof claims !== 'object' || claims === null || !('aal' in claims)) return null;
    return typeof claims.aal === 'string' ? claims.aal : null;
  } catch {
    return null;
  }
}
