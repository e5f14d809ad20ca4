/**
 * A local stand-in for the DNS provider: zones live only in public.dns_zones (which kiosk-dns
 * writes for every provider), get a sandbox id and name servers under .localhost, and become
 * active the first time they are looked up again (as if their name servers had been set).
 */
import { sql } from '../_shared/sql.ts';
import type { DnsProvider, DnsZone, ZoneStatus } from './provider.ts';

export const SANDBOX_NAME_SERVERS = ['ada.ns.sandbox.localhost', 'bob.ns.sandbox.localhost'];

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

export class SandboxDnsProvider implements DnsProvider {
  readonly name = 'sandbox';

  createZone(name: string): Promise<DnsZone> {
    return Promise.resolve({
      id: `sandbox_${randomHex(16)}`,
      name,
      status: 'pending',
      nameServers: [...SANDBOX_NAME_SERVERS],
    });
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

  deleteZone(): Promise<void> {
    return Promise.resolve();
  }
}
