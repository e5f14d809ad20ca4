/**
 * What staff may type as a blocked address: one IPv4 or IPv6 address, or a CIDR range whose
 * host bits are zero (Postgres' cidr refuses 203.0.113.5/24). The database checks too; this
 * gives the message before the round trip.
 */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Bits(address: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(address) || (address.match(/::/g) ?? []).length > 1) return null;
  let text = address;
  // An embedded IPv4 tail (::ffff:192.0.2.1) is two groups.
  const tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    if (!IPV4.test(tail[1]!)) return null;
    const bits = ipv4Bits(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${(bits >> 16n).toString(16)}:${(bits & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [
    ...headGroups,
    ...Array<string>(rest === undefined ? 0 : missing).fill('0'),
    ...restGroups,
  ];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** Null when `value` is an address or a range, else the message to show. */
export function ipRangeProblem(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (!text) return 'Enter an IP address or a range such as 203.0.113.0/24.';
  const [address = '', prefixText, ...extra] = text.split('/');
  const v4 = IPV4.test(address);
  const bits = v4 ? ipv4Bits(address) : ipv6Bits(address);
  if (bits === null || extra.length > 0) return 'This is not an IP address or range.';
  const width = v4 ? 32 : 128;
  if (prefixText === undefined) return null;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > width) {
    return `The range's prefix length must be 0 to ${width}.`;
  }
  const hostBits = BigInt(width - Number(prefixText));
  if ((bits & ((1n << hostBits) - 1n)) !== 0n) {
    return 'The address has bits set beyond the prefix: give the range’s first address.';
  }
  return null;
}

/** react-admin validator. */
export const validateIpRange = (value: string) => ipRangeProblem(value) ?? undefined;
