import { badRequest } from './errors.ts';

/** GoTrue's checks of e-mail addresses and phone numbers, with its messages. */

// The shape badoux/checkmail accepts: dot-separated atoms of RFC 5322 characters, then a domain.
const ATOM = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF]+";
const LABEL =
  '[A-Za-z0-9\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF]([A-Za-z0-9\\-\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF]*[A-Za-z0-9\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF])?';
const EMAIL_FORMAT = new RegExp(`^${ATOM}(\\.${ATOM})*@${LABEL}(\\.${LABEL})*$`, 'u');

/** Returns the address lower-cased, as GoTrue stores it. */
export function validateEmail(email: string | undefined): string {
  if (!email) throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_FORMAT.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}

/** E.164 digits without the '+', after removing the punctuation people type. */
export function validatePhone(phone: string): string {
  const digits = phone.replace(/[\s+\-()]/g, '');
  if (!/^[1-9]\d{1,14}$/.test(digits)) {
    throw badRequest('validation_failed', 'Invalid phone number format (E.164 required)');
  }
  return digits;
}
