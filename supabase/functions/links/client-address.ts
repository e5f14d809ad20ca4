/**
 * The client's address for decisions that matter (the bot-check whitelist, the CCPA region), from
 * X-Forwarded-For as proxies build it: each appends the address it received the request from.
 * Only the entries our own proxies appended can be believed; anything to their left may be
 * whatever the client wrote. So the list is read from the right, skipping the addresses of
 * trusted proxies (TRUSTED_PROXIES), and the first other entry is the client.
 *
 * With no trusted proxies this is the last entry: the address the gateway in front of the
 * function (Kong on Supabase) saw on its socket. supabase/local's gateway forwards only the client
 * it decided on itself (its socket's peer, or what one of its STACK_TRUSTED_PROXIES forwarded).
 */
import { type Cidr, canonicalIp, inCidr, parseCidr, parseIp } from '../_shared/ip-address.ts';

export type TrustedProxies = readonly Cidr[];

/**
 * Comma-separated addresses and CIDR ranges. A bad entry voids the list (no proxy is trusted,
 * so the last hop is the client) rather than trusting a guess.
 */
export function parseTrustedProxies(list: string | undefined): TrustedProxies {
  const ranges: Cidr[] = [];
  for (const entry of (list ?? '').split(',').map((text) => text.trim())) {
    if (entry === '') continue;
    const cidr = parseCidr(entry);
    if (!cidr) {
      console.error(`TRUSTED_PROXIES: "${entry}" is not an address or range; trusting none`);
      return [];
    }
    ranges.push(cidr);
  }
  return ranges;
}

/** Canonical text of the client's address, or null when the header names none we can use. */
export function clientAddress(headers: Headers, trusted: TrustedProxies): string | null {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  let client: string | null = null;
  for (let index = entries.length - 1; index >= 0; index--) {
    const canonical = canonicalIp(entries[index] ?? '');
    // Garbage where an address should be: whatever lies further left is not believable either.
    if (!canonical) return client;
    client = canonical;
    const ip = parseIp(canonical);
    if (!ip || !trusted.some((range) => inCidr(ip, range))) return canonical;
  }
  // Every hop is a trusted proxy: the leftmost is the furthest we can see.
  return client;
}

/**
 * Every well-formed address of the X-Forwarded-For chain. Blocks are judged on all of them: the
 * address our gateway saw is always in the chain, so a blocked network cannot hide behind an
 * entry the client wrote (a made-up blocked entry only refuses the request that carries it).
 */
export function forwardedAddresses(headers: Headers): string[] {
  return (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => canonicalIp(entry.trim()))
    .filter((address): address is string => address !== null);
}
