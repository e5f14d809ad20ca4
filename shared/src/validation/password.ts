/** Password rule (app-shell 5). */
import { characterCount } from './text.ts';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_TOO_SHORT = 'The password must be at least 6 characters';
/** Not in the spec; phrased like the spec's other "field is required" messages. */
export const PASSWORD_REQUIRED = 'The password field is required.';
export const PASSWORD_CONFIRMATION_MISMATCH = 'The password confirmation does not match.';

export function validatePassword(password: string | null | undefined): string | null {
  if (password == null || password === '') return PASSWORD_REQUIRED;
  return characterCount(password) < PASSWORD_MIN_LENGTH ? PASSWORD_TOO_SHORT : null;
}
