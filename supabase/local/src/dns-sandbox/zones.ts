/**
 * The DNS sandbox's data: zones holding record sets, and the authoritative answer to one
 * question, as a name server for those zones gives it (RFC 1034 §4.3.2, simplified to what
 * domain verification needs: no delegation, no wildcards, one CNAME hop followed in-zone).
 */

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface DnsRecord {
  /** Fully qualified, lower case, no trailing dot. */
  name: string;
  type: RecordType;
  /** An address (A, AAAA), a host name (CNAME) or the text (TXT). */
  value: string;
  ttl: number;
}

export type Answer =
  | { rcode: 'NOERROR'; zone: string; records: DnsRecord[] }
  | { rcode: 'NXDOMAIN'; zone: string; records: [] }
  /** Not a name in any of our zones: an authoritative server refuses it. */
  | { rcode: 'REFUSED' };

export const DEFAULT_TTL = 60;

const LABEL = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)$/;

/** A host name as the sandbox keys it, or null if it is not one (a trailing dot is fine). */
export function normalizeName(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv6(value: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(':')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** Why a value does not fit its type, or null when it does; CNAME values come back normalized. */
export function checkValue(
  type: RecordType,
  value: string,
): { value: string } | { problem: string } {
  switch (type) {
    case 'A':
      return IPV4.test(value) ? { value } : { problem: 'An A record needs an IPv4 address.' };
    case 'AAAA':
      return isIpv6(value)
        ? { value: value.toLowerCase() }
        : { problem: 'An AAAA record needs an IPv6 address.' };
    case 'CNAME': {
      const target = normalizeName(value);
      return target ? { value: target } : { problem: 'A CNAME record needs a host name.' };
    }
    case 'TXT':
      // One character-string holds 255 bytes; longer text would need splitting, which nothing
      // here needs.
      return Buffer.byteLength(value) <= 255
        ? { value }
        : { problem: 'A TXT record holds at most 255 bytes.' };
  }
}

const inZone = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

export class ZoneStore {
  /** zone → records, in the order they were set. */
  private readonly zones = new Map<string, DnsRecord[]>();

  zoneNames(): string[] {
    return [...this.zones.keys()].sort();
  }

  records(zone: string): DnsRecord[] | undefined {
    return this.zones.get(zone)?.map((record) => ({ ...record }));
  }

  /**
   * Replaces the record set `name`/`type` of `zone` (creating the zone) with `values`. A CNAME
   * cannot share its name with other data (RFC 1034 §3.6.2): setting one removes the rest, and
   * setting other data removes a CNAME.
   */
  set(zone: string, name: string, type: RecordType, values: string[], ttl = DEFAULT_TTL) {
    if (!inZone(name, zone)) throw new Error(`${name} is not in zone ${zone}`);
    const kept = (this.zones.get(zone) ?? []).filter(
      (record) =>
        record.name !== name ||
        (type !== 'CNAME' && record.type !== type && record.type !== 'CNAME'),
    );
    const added = values.map((value) => ({ name, type, value, ttl }));
    this.zones.set(zone, [...kept, ...added]);
  }

  /** Removes a name's records (of one type, or all); true if any went. */
  delete(zone: string, name: string, type?: RecordType): boolean {
    const records = this.zones.get(zone);
    if (!records) return false;
    const kept = records.filter(
      (record) => record.name !== name || (type !== undefined && record.type !== type),
    );
    this.zones.set(zone, kept);
    return kept.length !== records.length;
  }

  /** Holds `zone` (empty if new): its names are then answered, NXDOMAIN where there is none. */
  createZone(zone: string): boolean {
    if (this.zones.has(zone)) return false;
    this.zones.set(zone, []);
    return true;
  }

  deleteZone(zone: string): boolean {
    return this.zones.delete(zone);
  }

  /** The closest enclosing zone of a name, if we hold one. */
  zoneOf(name: string): string | undefined {
    let best: string | undefined;
    for (const zone of this.zones.keys())
      if (inZone(name, zone) && (best === undefined || zone.length > best.length)) best = zone;
    return best;
  }

  /** What an authoritative server for these zones answers to `name`/`type`. */
  answer(rawName: string, type: string): Answer {
    const name = normalizeName(rawName);
    const zone = name === null ? undefined : this.zoneOf(name);
    if (name === null || zone === undefined) return { rcode: 'REFUSED' };
    const atName = (this.zones.get(zone) ?? []).filter((record) => record.name === name);
    if (atName.length === 0) {
      // A name with no records of its own but names under it exists (an empty non-terminal).
      const hasChildren = (this.zones.get(zone) ?? []).some((record) =>
        record.name.endsWith(`.${name}`),
      );
      return hasChildren || name === zone
        ? { rcode: 'NOERROR', zone, records: [] }
        : { rcode: 'NXDOMAIN', zone, records: [] };
    }
    const exact = atName.filter((record) => record.type === type);
    if (exact.length > 0 || type === 'CNAME') return { rcode: 'NOERROR', zone, records: exact };
    const cname = atName.find((record) => record.type === 'CNAME');
    if (!cname) return { rcode: 'NOERROR', zone, records: [] };
    // Follow the alias once when its target is ours too, as an authoritative server adds what
    // it knows; a resolver chases the rest.
    // Only one hop, so that two CNAMEs naming each other cannot loop.
    const targetZone = this.zoneOf(cname.value);
    const target = (targetZone === undefined ? [] : (this.zones.get(targetZone) ?? [])).filter(
      (record) => record.name === cname.value && record.type === type,
    );
    return { rcode: 'NOERROR', zone, records: [cname, ...target] };
  }
}
