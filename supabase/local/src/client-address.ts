import net from 'node:net';
import { StackError } from './errors.ts';

/**
 * Who the client is, decided once, at the gateway, the way Kong decides it for Supabase
 * (`trusted_ips` with nginx's real-IP module, recursive): the socket's peer, unless that peer is a
 * proxy we trust, in which case X-Forwarded-For is read from the right, skipping trusted proxies,
 * and the first other address is the client. A header from anyone else is ignored, so a caller
 * cannot pick the address that Auth's rate limits, the bot-check whitelist or the CCPA region see.
 */

export interface TrustedProxies {
  has(address: string): boolean;
}

/** IPv4 as dotted text, as nginx's $remote_addr has it (not the dual-stack ::ffff:a.b.c.d). */
function plain(address: string): string {
  return address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/** Comma-separated addresses and CIDR ranges (STACK_TRUSTED_PROXIES); a bad entry is an error. */
export function parseTrustedProxies(list: string): TrustedProxies {
  const blocks = new net.BlockList();
  for (const entry of list.split(',').map((text) => text.trim())) {
    if (entry === '') continue;
    const [address = '', bits, ...extra] = entry.split('/');
    const family = net.isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    const valid =
      family !== 0 &&
      extra.length === 0 &&
      Number.isInteger(prefix) &&
      prefix >= 0 &&
      prefix <= (family === 6 ? 128 : 32);
    if (!valid)
      throw new StackError(`STACK_TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    blocks.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return {
    has(address: string) {
      const text = plain(address);
      const family = net.isIP(text);
      return family !== 0 && blocks.check(text, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/** The client's address (dotted IPv4 or IPv6 text) for a request from `peer`. */
export function clientAddress(
  peer: string,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies,
): string {
  let client = plain(peer);
  if (!trusted.has(client)) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map(plain)
    .filter(Boolean);
  for (const hop of hops.reverse()) {
    // Garbage where an address should be: nothing further left can be believed either.
    if (net.isIP(hop) === 0) return client;
    client = hop;
    if (!trusted.has(hop)) return client;
  }
  return client;
}

/** Distinct (peer, X-Forwarded-For) pairs whose client address a resolver remembers. */
const CLIENT_MEMO_SIZE = 10_000;
/** Longer chains are decided afresh each time rather than held (memory stays bounded). */
const MEMO_KEY_LENGTH = 256;

/**
 * clientAddress for one set of trusted proxies, remembered: the decision is a pure function of
 * the peer and its X-Forwarded-For, and visitors repeat both (a kept-alive connection, a CDN's few
 * addresses), so it costs a map lookup instead of a few BlockList checks per request. Bounded:
 * emptied when full. The gateway and the functions' relay shim (functions/relay-shim.js) use it.
 */
export function clientResolver(
  trusted: TrustedProxies,
): (peer: string, forwardedFor: string | string[] | null | undefined) => string {
  const clients = new Map<string, string>();
  return (peer, forwardedFor) => {
    const key = forwardedFor == null ? peer : `${peer}|${String(forwardedFor)}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = clientAddress(peer, forwardedFor ?? undefined, trusted);
      if (key.length <= MEMO_KEY_LENGTH) {
        if (clients.size >= CLIENT_MEMO_SIZE) clients.clear();
        clients.set(key, client);
      }
    }
    return client;
  };
}
