/**
 * Staff impersonation tokens (kiosk-impersonate/token.ts) act as the user but must never take
 * the account over. They are known by their `amr` (the `impersonation` method), as Auth and the
 * database know them (supabase/local/src/auth/impersonation.ts, app.is_impersonating()), or by
 * the `impersonator` claim kiosk-impersonate adds beside it.
 */
import { HttpError } from './http.ts';
import { impersonationClaim } from './kiosk/staff.ts';

export const IMPERSONATION_METHOD = 'impersonation';

export function isImpersonation(claims: Record<string, unknown>): boolean {
  const amr = claims.amr;
  const byAmr =
    Array.isArray(amr) &&
    amr.some(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        (entry as { method?: unknown }).method === IMPERSONATION_METHOD,
    );
  return byAmr || impersonationClaim(claims) !== null;
}

/** 403 impersonation_not_allowed, the code Auth and the database answer such a token too. */
export const impersonationNotAllowed = (message: string) =>
  new HttpError(403, message, 'impersonation_not_allowed');
