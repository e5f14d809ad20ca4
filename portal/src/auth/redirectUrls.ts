import { href, RETURN_PARAM, safeReturnPath } from '../routes/paths.ts';

/**
 * Where Auth's e-mail links bring the browser back to (their redirect_to): the portal's own
 * pages, on the origin the user is on. Auth accepts them when they match its site URL or
 * additional_redirect_urls.
 */

/** password/reset/{token} for a link that carries the recovery session in its fragment. */
export const RESET_LINK_TOKEN = 'email-link';

/** email/verify, carrying where to go once verified (an invitation link's page, say). */
export function emailVerificationRedirect(
  origin = window.location.origin,
  returnTo: string | null = null,
): string {
  const target = safeReturnPath(returnTo);
  return origin + href('email_verify', null, target ? { [RETURN_PARAM]: target } : undefined);
}

export function passwordResetRedirect(origin = window.location.origin): string {
  return origin + href('password.reset.token', { token: RESET_LINK_TOKEN });
}
