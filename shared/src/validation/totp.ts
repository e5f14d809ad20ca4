/**
 * TOTP codes as authenticator apps show them. Kept free of zod so that code the portal loads
 * up front (the password-confirmation modal's re-authentication) stays small.
 */

// Not in the spec; phrased like its other field messages.
export const TOTP_CODE_REQUIRED = 'The code field is required.';
export const TOTP_CODE_FORMAT = 'The code must be 6 digits.';

/** 6 digits with any spaces ("123 456") taken out, or the message saying what is wrong. */
export function parseTotpCode(value: string): { code: string } | { error: string } {
  const code = value.replace(/\s/g, '');
  if (code === '') return { error: TOTP_CODE_REQUIRED };
  if (!/^\d{6}$/.test(code)) return { error: TOTP_CODE_FORMAT };
  return { code };
}
