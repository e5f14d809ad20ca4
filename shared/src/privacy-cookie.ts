import { COOKIE_NAMES } from './constants.ts';

/** A date far enough ahead to mean "never expires" (the latest a cookie date can say). */
export const NEVER_EXPIRES = 'Fri, 31 Dec 9999 23:59:59 GMT';

/**
 * The privacy opt-out (strict privacy) preference in a Cookie header, or null when it was never
 * chosen (link-creation 4). The portal's opt-out modal writes it, and so does a short domain's
 * opt-out page; the redirector reads it on short links to leave retargeting pixels out.
 */
export function readStrictPrivate(cookies: string): boolean | null {
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE_NAMES.strictPrivate) {
      const text = value.join('=');
      if (text === 'true') return true;
      if (text === 'false') return false;
    }
  }
  return null;
}

/** The cookie string that stores the preference for good (link-creation 4). */
export function strictPrivateCookie(optedOut: boolean): string {
  return `${COOKIE_NAMES.strictPrivate}=${optedOut}; expires=${NEVER_EXPIRES}; path=/; SameSite=Lax`;
}
