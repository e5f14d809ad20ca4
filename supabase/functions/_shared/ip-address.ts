/**
 * IP addresses as bytes: strict parsing, canonical text, and which special-purpose range (IANA
 * registries) an address falls in. Shared by URL safety (is a destination internal?), click
 * capture (GeoIP and hashing need one canonical form) and the bot-check whitelist.
 */

export interface Ipv4Address {
  version: 4;
  bytes: Uint8Array;
}
export interface Ipv6Address {
  version: 6;
  bytes: Uint8Array;
}
export type IpAddress = Ipv4Address | Ipv6Address;

/** Special-purpose ranges; anything not listed is `public`. */
export type IpRange =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'documentation'
  | 'reserved';

const DECIMAL_OCTET = /^(?:0|[1-9]\d{0,2})$/;

/**
 * Dotted-quad decimal only. Leading zeros are refused rather than read as octal: an address
 * from a header or a config file has one spelling, so any other is a mistake or a trick.
 */
function parseIpv4(text: string): Ipv4Address | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!DECIMAL_OCTET.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[index] = value;
  }
  return { version: 4, bytes };
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    // An embedded IPv4 address may only be the last part (`::ffff:127.0.0.1`).
    if (index === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (!v4) return null;
      groups.push(((v4.bytes[0] ?? 0) << 8) | (v4.bytes[1] ?? 0));
      groups.push(((v4.bytes[2] ?? 0) << 8) | (v4.bytes[3] ?? 0));
      continue;
    }
    if (!HEX_GROUP.test(part)) return null;
    groups.push(parseInt(part, 16));
  }
  return groups;
}

function parseIpv6(text: string): Ipv6Address | null {
  // Zone identifiers (`fe80::1%eth0`) name an interface of this machine: never an address to keep.
  if (text.includes('%')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return { version: 6, bytes };
}

/** Parses one address (IPv6 may be bracketed, as in a URL host); null when it is not one. */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (bare.includes(':')) return parseIpv6(bare);
  return parseIpv4(bare);
}

/** RFC 5952 text: lower case, the longest run of two or more zero groups as `::`. */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return Array.from(ip.bytes).join('.');
  const groups = Array.from(
    { length: 8 },
    (_, i) => ((ip.bytes[i * 2] ?? 0) << 8) | (ip.bytes[i * 2 + 1] ?? 0),
  );
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  const head = hex.slice(0, bestStart).join(':');
  const tail = hex.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

function ipv4(a: number, b: number, c: number, d: number): Ipv4Address {
  return { version: 4, bytes: new Uint8Array([a, b, c, d]) };
}

function prefixMatches(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  const whole = Math.floor(bits / 8);
  for (let i = 0; i < whole; i++) if (bytes[i] !== prefix[i]) return false;
  const rest = bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((prefix[whole] ?? 0) & mask);
}

export interface Cidr {
  address: IpAddress;
  bits: number;
}

/** `10.0.0.0/8`, `fc00::/7`, or a single address (a /32 or /128). */
export function parseCidr(text: string): Cidr | null {
  const [addressText, bitsText, ...extra] = text.trim().split('/');
  if (addressText === undefined || extra.length > 0) return null;
  const address = parseIp(addressText);
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  if (bitsText === undefined) return { address, bits: max };
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  return bits <= max ? { address, bits } : null;
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  return (
    ip.version === cidr.address.version && prefixMatches(ip.bytes, cidr.address.bytes, cidr.bits)
  );
}

function table(entries: [string, IpRange][]): [Cidr, IpRange][] {
  return entries.map(([text, range]) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`bad range ${text}`);
    return [cidr, range];
  });
}

// IANA IPv4 Special-Purpose Address Registry (cloud metadata services sit inside these:
// 169.254.169.254, 100.100.100.200, 192.0.0.192).
const IPV4_RANGES = table([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

// IANA IPv6 Special-Purpose Address Registry. Ranges that embed an IPv4 address are judged by
// that address instead (see embeddedIpv4).
const IPV6_RANGES = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['100::/64', 'reserved'],
  // Teredo hides the client's IPv4 address; nothing public needs a link to one.
  ['2001::/32', 'reserved'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
]);

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
 * (::/96, deprecated but still routed by some stacks), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
export function embeddedIpv4(ip: IpAddress): Ipv4Address | null {
  if (ip.version === 4) return null;
  const b = ip.bytes;
  const zeros = (from: number, to: number) => b.slice(from, to).every((byte) => byte === 0);
  const last4 = () => ipv4(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return last4();
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not compatible ones.
  if (zeros(0, 12) && !(zeros(12, 15) && (b[15] ?? 0) <= 1)) return last4();
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return last4();
  if (b[0] === 0x20 && b[1] === 0x02) return ipv4(b[2] ?? 0, b[3] ?? 0, b[4] ?? 0, b[5] ?? 0);
  return null;
}

export function classifyIp(ip: IpAddress): IpRange {
  const embedded = embeddedIpv4(ip);
  if (embedded) return classifyIp(embedded);
  const ranges = ip.version === 4 ? IPV4_RANGES : IPV6_RANGES;
  for (const [cidr, range] of ranges) if (inCidr(ip, cidr)) return range;
  return 'public';
}

export const isPublicIp = (ip: IpAddress): boolean => classifyIp(ip) === 'public';

/**
 * One spelling per client: IPv4-mapped IPv6 (what a dual-stack socket reports for an IPv4
 * client) becomes plain IPv4, IPv6 becomes RFC 5952 text. Null for anything that is not an IP.
 */
export function canonicalIp(text: string): string | null {
  const ip = parseIp(text.trim());
  if (!ip) return null;
  const b = ip.bytes;
  const mapped =
    ip.version === 6 &&
    b.slice(0, 10).every((byte) => byte === 0) &&
    b[10] === 0xff &&
    b[11] === 0xff;
  return formatIp(mapped ? ipv4(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0) : ip);
}
