import { COOKIE_NAMES } from '@shortlane/shared/constants.ts';

export { readStrictPrivate } from '@shortlane/shared/privacy-cookie.ts';

/** A date far enough ahead to mean "never expires" (the latest a cookie date can say). */
export const NEVER_EXPIRES = 'Fri, 31 Dec 9999 23:59:59 GMT';

/** The cookie string that stores the preference for good (link-creation 4). */
export function strictPrivateCookie(optedOut: boolean): string {
  return `${COOKIE_NAMES.strictPrivate}=${optedOut}; expires=${NEVER_EXPIRES}; path=/; SameSite=Lax`;
}
