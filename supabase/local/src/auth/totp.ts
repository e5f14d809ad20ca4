import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), with the parameters GoTrue uses
 * for TOTP factors: SHA-1, 6 digits, 30-second steps, one step of clock skew either way, and a
 * 20-byte secret shown as unpadded base32.
 */

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  algorithm: TotpAlgorithm;
  digits: number;
  periodSeconds: number;
}

export const GOTRUE_TOTP: TotpOptions = { algorithm: 'sha1', digits: 6, periodSeconds: 30 };

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return output;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index === -1) throw new Error(`Invalid base32 character "${char}"`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP value for a counter. */
export function hotp(secret: Uint8Array, counter: number, options: TotpOptions): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac(options.algorithm, secret).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** options.digits).padStart(options.digits, '0');
}

export function totp(secret: Uint8Array, atMs: number, options: TotpOptions = GOTRUE_TOTP): string {
  return hotp(secret, Math.floor(atMs / 1000 / options.periodSeconds), options);
}

/** True when `code` matches the step at `atMs` or one of its `skew` neighbours. */
export function verifyTotp(
  code: string,
  secret: Uint8Array,
  atMs: number,
  options: TotpOptions = GOTRUE_TOTP,
  skew = 1,
): boolean {
  if (!/^\d+$/.test(code) || code.length !== options.digits) return false;
  const step = Math.floor(atMs / 1000 / options.periodSeconds);
  const given = Buffer.from(code);
  for (let delta = -skew; delta <= skew; delta++) {
    if (step + delta < 0) continue;
    const expected = Buffer.from(hotp(secret, step + delta, options));
    if (timingSafeEqual(expected, given)) return true;
  }
  return false;
}

export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The otpauth:// URI authenticator apps read from the QR code (pquerna/otp's Key.URL()). */
export function totpUri(issuer: string, accountName: string, secret: string): string {
  const query = new URLSearchParams({
    algorithm: 'SHA1',
    digits: '6',
    issuer,
    period: '30',
    secret,
  });
  // Go escapes a URL path's characters except the unreserved ones and $&+,/:;=@.
  const label = encodeURIComponent(`${issuer}:${accountName}`).replace(
    /%(24|26|2B|2C|2F|3A|3B|3D|40)/g,
    (escaped) => decodeURIComponent(escaped),
  );
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, '%20')}`;
}
