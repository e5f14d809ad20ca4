/**
 * The query flag of settings/security after a backup-code login: two-factor authentication was
 * turned off by that code, and the page asks the user to set it up again.
 */
export const REENROLL_PARAM = 'reenroll';
