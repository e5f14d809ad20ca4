/**
 * kiosk-dns: the cloudflare/zones screen's actions, for staff only. The screen lists
 * public.dns_zones through the REST API (staff-only by RLS); changes go through here, so the
 * provider and the table stay in step.
 *
 *   POST { action: "create", name }  creates the zone at the provider, then the row → the row
 *   POST { action: "delete", id }    deletes it at the provider and the row, unless a bought
 *                                    name still needs it (409 dns_zone_in_use)
 *   POST { action: "sync" }          refreshes every row's status and name servers → the rows
 */
import { codedError } from '../_shared/coded-error.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { recordKioskAction } from '../_shared/kiosk/audit.ts';
import { invalid, readAction, readBody } from '../_shared/kiosk/request.ts';
import { requireStaff } from '../_shared/kiosk/staff.ts';
import { sql } from '../_shared/sql.ts';
import { dnsProviderFromEnv, type ProviderChoice } from './env.ts';
import { type DnsProvider, DnsProviderError } from './provider.ts';

export const DNS_ACTIONS = ['create', 'delete', 'sync'] as const;

// The rule public.domain_name checks (lower-case, at least two labels).
const ZONE_NAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ZoneRow {
  id: string;
  zone_id: string;
  name: string;
  status: string;
  nameservers: string[];
  created_at: string;
  updated_at: string;
}

function readZoneName(body: Record<string, unknown>): string {
  const name =
    typeof body.name === 'string' ? body.name.trim().toLowerCase().replace(/\.$/, '') : '';
  if (name.length > 253 || !ZONE_NAME.test(name)) {
    throw invalid('name', 'The name must be a domain name such as example.com.');
  }
  return name;
}

function readZoneId(body: Record<string, unknown>): string {
  if (typeof body.id !== 'string' || !UUID.test(body.id)) {
    throw invalid('id', 'The id must be a zone id (UUID).');
  }
  return body.id;
}

async function create(provider: DnsProvider, staffId: string, name: string) {
  const [existing] = await sql()`select 1 from public.dns_zones where name = ${name}`;
  if (existing) {
    throw new HttpError(409, 'That zone already exists', 'zone_exists', {
      name: ['That zone already exists'],
    });
  }
  const zone = await provider.createZone(name);
  const [row] = await sql()<ZoneRow[]>`
    insert into public.dns_zones (zone_id, name, status, nameservers)
    values (${zone.id}, ${name}, ${zone.status}, ${zone.nameServers})
    returning *`;
  await recordKioskAction({
    actorId: staffId,
    action: 'dns.zone_created',
    details: { name, zone_id: zone.id, provider: provider.name },
  });
  return json(row, 201);
}

async function remove(provider: DnsProvider, staffId: string, id: string) {
  // The row goes first, so the database can refuse a zone a customer's bought name still needs
  // (migration 20261122008300) before the provider is asked; it is kept if the provider fails.
  const row = await sql()
    .begin(async (tx) => {
      const [deleted] = await tx<ZoneRow[]>`
        delete from public.dns_zones where id = ${id} returning *`;
      if (!deleted) throw new HttpError(404, 'Zone not found', 'zone_not_found');
      await provider.deleteZone(deleted.zone_id);
      return deleted;
    })
    .catch((error: unknown) => {
      throw codedError(error);
    });
  await recordKioskAction({
    actorId: staffId,
    action: 'dns.zone_deleted',
    details: { name: row.name, zone_id: row.zone_id, provider: provider.name },
  });
  return json({ id });
}

async function sync(provider: DnsProvider, staffId: string) {
  const rows = await sql()<ZoneRow[]>`
    select * from public.dns_zones where status <> 'deleted' order by name`;
  const synced: ZoneRow[] = [];
  for (const row of rows) {
    const zone = await provider.getZone(row.zone_id);
    const [updated] = await sql()<ZoneRow[]>`
      update public.dns_zones
      set status = ${zone?.status ?? 'deleted'}, nameservers = ${zone?.nameServers ?? row.nameservers}
      where id = ${row.id}
      returning *`;
    if (updated) synced.push(updated);
  }
  await recordKioskAction({
    actorId: staffId,
    action: 'dns.zones_synced',
    details: { zones: synced.length, provider: provider.name },
  });
  return json(synced);
}

export function createDnsHandler(choose: () => ProviderChoice = dnsProviderFromEnv) {
  return handler(async (request) => {
    const staff = await requireStaff(request);
    const body = await readBody(request);
    const action = readAction(body, DNS_ACTIONS);
    const choice = choose();
    if (!choice.ok) {
      console.error(`kiosk-dns: ${choice.problem}`);
      throw new HttpError(503, 'DNS zones are not configured', 'dns_not_configured');
    }
    try {
      if (action === 'create') return await create(choice.provider, staff.id, readZoneName(body));
      if (action === 'delete') return await remove(choice.provider, staff.id, readZoneId(body));
      return await sync(choice.provider, staff.id);
    } catch (error) {
      if (error instanceof DnsProviderError) {
        throw new HttpError(error.status, error.message, 'dns_provider_error');
      }
      throw error;
    }
  });
}
