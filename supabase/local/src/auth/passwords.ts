import bcrypt from 'bcryptjs';
import { badRequest, WeakPasswordError } from './errors.ts';
import type { AuthSettings } from './settings.ts';

/** bcrypt only looks at the first 72 bytes; GoTrue refuses longer passwords outright. */
const MAX_PASSWORD_LENGTH = 72;
const BCRYPT_COST = 10;

/**
 * bcrypt at GoTrue's cost, with the `$2a$` prefix Go writes (bcryptjs would write `$2b$`, which
 * older pgcrypto builds refuse); `crypt(password, encrypted_password)` in SQL checks it too.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = (await bcrypt.genSalt(BCRYPT_COST)).replace(/^\$2b\$/, '$2a$');
  return bcrypt.hash(password, salt);
}

/** False for a missing or non-bcrypt hash rather than an error, as a failed login should be. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !/^\$2[abxy]\$\d{2}\$/.test(hash)) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

export function checkPasswordStrength(settings: AuthSettings, password: string): void {
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(
      'validation_failed',
      `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`,
    );
  }
  const reasons: string[] = [];
  const messages: string[] = [];
  if (password.length < settings.minPasswordLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${settings.minPasswordLength} characters.`);
  }
  const sets = settings.passwordRequiredCharacters;
  if (sets.some((set) => set !== '' && ![...set].some((char) => password.includes(char)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  if (reasons.length > 0) throw new WeakPasswordError(messages.join(' '), reasons);
}
