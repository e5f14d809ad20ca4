/**
 * Clicks keep a keyed hash of the visitor's IP address, never the address: enough to count
 * unique visitors, useless to anyone without the salt. A plain SHA-256 would not do: the whole
 * IPv4 space hashes in minutes. The salt keys an HMAC-SHA-256 (the standard way to salt a hash);
 * it comes from CLICK_IP_SALT and must stay secret and stable (changing it breaks uniqueness
 * across the change, which is also how to rotate it on purpose).
 */
import { canonicalIp } from '../ip-address.ts';

export const IP_SALT_VARIABLE = 'CLICK_IP_SALT';
export const MIN_SALT_LENGTH = 16;

export interface IpHasher {
  /** 64 hex characters, or null when the text is not an IP address. */
  hash(remoteIp: string | null | undefined): Promise<string | null>;
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

export function ipHasher(salt: string): IpHasher {
  if (salt.length < MIN_SALT_LENGTH)
    throw new Error(`The IP hash salt must have at least ${MIN_SALT_LENGTH} characters`);
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(salt),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return {
    async hash(remoteIp) {
      // One spelling per client, so ::ffff:1.2.3.4 and 1.2.3.4 count as the same visitor.
      const ip = remoteIp ? canonicalIp(remoteIp) : null;
      if (!ip) return null;
      return hex(await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(ip)));
    },
  };
}

/** From CLICK_IP_SALT; fails with a message naming the variable when it is missing or short. */
export function ipHasherFromEnv(
  env: { get(name: string): string | undefined } = Deno.env,
): IpHasher {
  const salt = env.get(IP_SALT_VARIABLE);
  if (!salt) throw new Error(`The environment variable ${IP_SALT_VARIABLE} is not set`);
  if (salt.length < MIN_SALT_LENGTH)
    throw new Error(`${IP_SALT_VARIABLE} must have at least ${MIN_SALT_LENGTH} characters`);
  return ipHasher(salt);
}
