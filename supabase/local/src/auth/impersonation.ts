import type { AccessTokenClaims } from '../jwt.ts';
import { forbidden } from './errors.ts';

/**
 * Staff impersonation (supabase/functions/kiosk-impersonate/token.ts) signs an access token for
 * the user whose `amr` names the `impersonation` method. Such a token reads and acts as the user,
 * but must never take the account over: it may not change the credentials that decide who can
 * sign in (password, e-mail, phone, MFA factors). GoTrue has no impersonation, so the refusal
 * uses a code of its own in GoTrue's style.
 */

export const IMPERSONATION_METHOD = 'impersonation';

export const IMPERSONATION_NOT_ALLOWED = 'impersonation_not_allowed';

/** True when the token's authentication methods include impersonation. */
export function isImpersonation(claims: AccessTokenClaims): boolean {
  const amr: unknown = claims.amr;
  return (
    Array.isArray(amr) &&
    amr.some(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        (entry as { method?: unknown }).method === IMPERSONATION_METHOD,
    )
  );
}

/** 403 impersonation_not_allowed when an impersonation token asks to change `what`. */
export function refuseImpersonation(claims: AccessTokenClaims, what: string): void {
  if (isImpersonation(claims)) {
    throw forbidden(IMPERSONATION_NOT_ALLOWED, `An impersonation session cannot ${what}`);
  }
}
