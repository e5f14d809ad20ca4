import { href } from '../routes/paths.ts';

/**
 * Where Auth's e-mail links bring the browser back to (their redirect_to): the portal's own
 * pages, on the origin the user is on. Auth accepts them when they match its site URL or
 * additional_redirect_urls.
 */

/** password/reset/{token} for a link that carries the recovery session in its fragment. */
export const RESET_LINK_TOKEN = 'email-link';

export function emailVerificationRedirect(origin = window.location.origin): string {
  return origin + href('email_verify');
}

export function passwordResetRedirect(origin = window.location.origin): string {
  return origin + href('password.reset.token', { token: RESET_LINK_TOKEN });
}
