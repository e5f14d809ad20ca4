/**
 * DNS zones behind an adapter: the kiosk's cloudflare/zones screen and kiosk-dns depend on this
 * interface only. Implementations: Cloudflare's REST API (cloudflare.ts) and a local sandbox
 * (sandbox.ts) for development and tests; env.ts chooses.
 */

/** Our zone states (public.dns_zones.status). */
export type ZoneStatus = 'pending' | 'active' | 'moved' | 'deleted';

export interface DnsZone {
  /** The provider's zone id. */
  id: string;
  name: string;
  status: ZoneStatus;
  nameServers: string[];
}

export interface DnsProvider {
  readonly name: 'cloudflare' | 'sandbox';
  /**
   * A new zone in our account. A name that already has one is refused (DnsProviderError, status
   * 409), as Cloudflare does: callers keep the zone they made and use it again.
   */
  createZone(name: string): Promise<DnsZone>;
  /** The zone, or null when the provider no longer has it. */
  getZone(id: string): Promise<DnsZone | null>;
  /**
   * The zone our account has for a name, or null: how a caller whose createZone answer was lost
   * (a crash, a timeout) finds the zone the provider made all the same.
   */
  findZone(name: string): Promise<DnsZone | null>;
  /** Removes the zone; a zone the provider no longer has counts as removed. */
  deleteZone(id: string): Promise<void>;
  /**
   * Sets one record in a zone we run (a purchased domain's): `name` is a host in the zone,
   * `type` TXT, CNAME, A or AAAA.
   */
  putRecord(zone: DnsZone, record: DnsRecord): Promise<void>;
}

export interface DnsRecord {
  name: string;
  type: 'TXT' | 'CNAME' | 'A' | 'AAAA';
  value: string;
}

/** The status of a refusal to create a zone for a name that already has one of ours. */
export const ZONE_EXISTS = 409;

/** The provider refused or could not be asked; the message is safe to show staff. */
export class DnsProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly providerCodes: number[] = [],
  ) {
    super(message);
    this.name = 'DnsProviderError';
  }
}
