// Kept apart from twoFactorApi so the password-confirmation modal, loaded with the first page,
// can say them without loading the API.
/**
 * The calls behind the two-factor screens: Auth's TOTP factors (enroll, challenge and verify,
 * unenroll) and the database's backup-code RPCs (20261122001400_two_factor.sql). Each resolves
 * with what the screen shows; none throws for an answer the user can act on.
 */

export const MESSAGES_2FA = {
  wrongCode: 'The code is invalid or has expired. Enter the current code from your app.',
  wrongBackupCode: 'The backup code is invalid or was already used.',
  tooManyAttempts: 'Too many wrong codes. Try again in 15 minutes.',
  noFactor: 'Two-factor authentication is not enabled for this account.',
  failed: 'Something went wrong. Please try again.',
} as const;
