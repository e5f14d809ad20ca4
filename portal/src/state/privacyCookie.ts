import { COOKIE_NAMES } from '@shortlane/shared/constants.ts';

/** A date far enough ahead to mean "never expires" (the latest a cookie date can say). */
export const NEVER_EXPIRES = 'Fri, 31 Dec 9999 23:59:59 GMT';

/** The privacy opt-out (strict privacy) preference, or null when it was never chosen. */
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
