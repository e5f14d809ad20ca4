/**
 * A local stand-in for the DNS provider: zones live in public.dns_zones (which kiosk-dns and the
 * domain-purchase worker write for every provider; a name with a zone there gets no second), get
 * a sandbox id and name servers under .localhost, and become active the first time they are
 * looked up again (as if their name servers had been set). On a local stack
 * (DNS_SANDBOX_API set) the zone is also created in, and removed from, the stack's DNS sandbox,
 * whose name server then answers for it as the provider's would.
 */
import { sql } from '../_shared/sql.ts';
import {
  type DnsProvider,
  DnsProviderError,
  type DnsRecord,
  type DnsZone,
  ZONE_EXISTS,
  type ZoneStatus,
} from './provider.ts';

export const SANDBOX_NAME_SERVERS = ['ada.ns.sandbox.localhost', 'bob.ns.sandbox.localhost'];

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

/** Where the stack's DNS sandbox API is, and the key it takes. */
export interface SandboxDnsApi {
  url: string;
  key: string;
}

export class SandboxDnsProvider implements DnsProvider {
  readonly name = 'sandbox';

  constructor(private readonly api?: SandboxDnsApi) {}

  /** A request to the stack's DNS sandbox; one that cannot be reached fails as a provider. */
  private static async call(
    api: SandboxDnsApi,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = { apikey: api.key };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return await fetch(`${api.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new DnsProviderError(`The DNS sandbox could not be reached: ${String(error)}`, 502);
    });
  }

  /** The DNS sandbox's status; null without one. */
  private async send(method: 'PUT' | 'DELETE', zone: string): Promise<number | null> {
    if (!this.api) return null;
    const response = await SandboxDnsProvider.call(
      this.api,
      method,
      `/zones/${encodeURIComponent(zone)}`,
    );
    await response.body?.cancel();
    // A zone the sandbox no longer holds (a restarted stack) counts as removed.
    if (!response.ok && !(method === 'DELETE' && response.status === 404)) {
      throw new DnsProviderError(`The DNS sandbox answered ${response.status}`, 502);
    }
    return response.status;
  }

  async createZone(name: string): Promise<DnsZone> {
    // As Cloudflare refuses a second zone for a name in the account, so a caller that forgets
    // the zone it made fails here as it would there: a zone is ours when public.dns_zones lists
    // it, or when the stack's DNS sandbox held it already (200, not 201: made and not listed).
    const exists = () => new DnsProviderError(`${name} already exists`, ZONE_EXISTS);
    const [listed] = await sql()`
      select 1 from public.dns_zones where name = ${name} and status <> 'deleted'`;
    if (listed) throw exists();
    if ((await this.send('PUT', name)) === 200) throw exists();
    return this.newZone(name);
  }

  private newZone(name: string): DnsZone {
    return {
      id: `sandbox_${randomHex(16)}`,
      name,
      status: 'pending',
      nameServers: [...SANDBOX_NAME_SERVERS],
    };
  }

  async getZone(id: string): Promise<DnsZone | null> {
    const [row] = await sql()<
      { zone_id: string; name: string; status: ZoneStatus; nameservers: string[] }[]
    >`
      select zone_id, name, status, nameservers from public.dns_zones where zone_id = ${id}`;
    if (!row || row.status === 'deleted') return null;
    return {
      id: row.zone_id,
      name: row.name,
      status: row.status === 'pending' ? 'active' : row.status,
      nameServers: row.nameservers,
    };
  }

  /**
   * The zone public.dns_zones lists for the name; otherwise one the stack's DNS sandbox holds
   * unlisted, the trace of a createZone whose answer was lost. The DNS sandbox keeps zones by
   * name only and that answer's random id was never stored, so the zone gets a new one: once the
   * caller lists it in public.dns_zones (as every caller of createZone does), getZone and
   * deleteZone find it under that id, as they find a zone they made.
   */
  async findZone(name: string): Promise<DnsZone | null> {
    const [row] = await sql()<{ zone_id: string }[]>`
      select zone_id from public.dns_zones where name = ${name} and status <> 'deleted'`;
    if (row) return this.getZone(row.zone_id);
    if (!this.api) return null;
    const response = await SandboxDnsProvider.call(this.api, 'GET', '/zones');
    if (!response.ok) {
      await response.body?.cancel();
      throw new DnsProviderError(`The DNS sandbox answered ${response.status}`, 502);
    }
    const { zones } = (await response.json()) as { zones?: unknown };
    if (!Array.isArray(zones) || !zones.includes(name)) return null;
    return this.newZone(name);
  }

  async deleteZone(id: string): Promise<void> {
    if (!this.api) return;
    const [row] = await sql()<{ name: string }[]>`
      select name from public.dns_zones where zone_id = ${id}`;
    if (row) await this.send('DELETE', row.name);
  }

  async putRecord(zone: DnsZone, record: DnsRecord): Promise<void> {
    if (!this.api) return;
    const response = await SandboxDnsProvider.call(
      this.api,
      'PUT',
      `/zones/${encodeURIComponent(zone.name)}/records`,
      { name: record.name, type: record.type, value: record.value },
    );
    await response.body?.cancel();
    if (!response.ok)
      throw new DnsProviderError(`The DNS sandbox answered ${response.status}`, 502);
  }
}
