import { json, type WebHandler } from '../http.ts';
import type { ZoneStore } from './zones.ts';
import { checkValue, DEFAULT_TTL, normalizeName, RECORD_TYPES, type RecordType } from './zones.ts';

/**
 * The DNS sandbox's HTTP API, mounted by the gateway at /sandbox/dns. It stands in for a DNS
 * host's control panel: the customer's "set these records" step in tests and in development,
 * and the kiosk's zone adapter locally. Callers present the service-role key (`apikey` or a
 * bearer token), so a web page open on this machine cannot change what the sandbox answers.
 *
 *   GET    /zones                               the zones held
 *   GET    /zones/{zone}/records                its records
 *   PUT    /zones/{zone}/records                {name, type, values | value, ttl?}: replaces
 *                                               that record set (name: "@", a label or a FQDN)
 *   DELETE /zones/{zone}/records?name=&type=    removes a name's records (type optional)
 *   PUT    /zones/{zone}                        holds the zone (empty if new): 201, or 200
 *   DELETE /zones/{zone}                        removes the zone
 */

const isRecordType = (value: unknown): value is RecordType =>
  typeof value === 'string' && (RECORD_TYPES as readonly string[]).includes(value);

/** "@" is the apex; a bare label is under the zone; a FQDN in the zone is taken as it is. */
function ownerName(raw: unknown, zone: string): string | null {
  if (raw === undefined || raw === '@') return zone;
  if (typeof raw !== 'string') return null;
  const name = normalizeName(raw);
  if (name === null) return null;
  return name === zone || name.endsWith(`.${zone}`) ? name : normalizeName(`${name}.${zone}`);
}

const problem = (message: string, status = 422) => json({ message }, status);

async function bodyOf(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await request.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function createDnsSandboxApi(store: ZoneStore, serviceRoleKey: string): WebHandler {
  const authorized = (request: Request) =>
    request.headers.get('apikey') === serviceRoleKey ||
    request.headers.get('authorization') === `Bearer ${serviceRoleKey}`;

  async function putRecords(request: Request, zone: string): Promise<Response> {
    const body = await bodyOf(request);
    if (!body) return problem('The body must be a JSON object.', 400);
    if (!isRecordType(body.type)) return problem(`type must be one of ${RECORD_TYPES.join(', ')}.`);
    const name = ownerName(body.name, zone);
    if (name === null) return problem(`name must be "@", a label or a host name in ${zone}.`);
    const rawValues = body.values ?? (body.value === undefined ? undefined : [body.value]);
    if (!Array.isArray(rawValues) || rawValues.length === 0)
      return problem('value (or values, a non-empty list) is required.');
    if (body.type === 'CNAME' && rawValues.length > 1)
      return problem('A CNAME record set holds one value.');
    const ttl = body.ttl ?? DEFAULT_TTL;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > 2_147_483_647)
      return problem('ttl must be a whole number of seconds.');
    const values: string[] = [];
    for (const raw of rawValues) {
      if (typeof raw !== 'string') return problem('Each value must be a string.');
      const checked = checkValue(body.type, raw);
      if ('problem' in checked) return problem(checked.problem);
      values.push(checked.value);
    }
    store.set(zone, name, body.type, values, ttl);
    return json({ zone, records: store.records(zone) ?? [] });
  }

  return async (request) => {
    if (!authorized(request)) return json({ message: 'Invalid authentication credentials' }, 401);
    const url = new URL(request.url);
    const parts = url.pathname.replace(/\/+$/, '').split('/').slice(1);
    if (parts.length === 1 && parts[0] === 'zones' && request.method === 'GET')
      return json({ zones: store.zoneNames() });
    if (parts[0] !== 'zones' || parts.length < 2 || parts.length > 3)
      return json({ message: 'Not found' }, 404);
    const zone = normalizeName(decodeURIComponent(parts[1] ?? ''));
    if (zone === null) return problem('The zone must be a host name.');

    if (parts.length === 2) {
      if (request.method === 'PUT') {
        const created = store.createZone(zone);
        return json({ zone, records: store.records(zone) ?? [] }, created ? 201 : 200);
      }
      if (request.method !== 'DELETE')
        return json({ message: 'Method not allowed' }, 405, { allow: 'PUT, DELETE' });
      return store.deleteZone(zone)
        ? new Response(null, { status: 204 })
        : json({ message: 'Zone not found' }, 404);
    }
    if (parts[2] !== 'records') return json({ message: 'Not found' }, 404);
    switch (request.method) {
      case 'GET': {
        const records = store.records(zone);
        return records ? json({ zone, records }) : json({ message: 'Zone not found' }, 404);
      }
      case 'PUT':
        return putRecords(request, zone);
      case 'DELETE': {
        const name = ownerName(url.searchParams.get('name') ?? undefined, zone);
        if (name === null) return problem(`name must be "@", a label or a host name in ${zone}.`);
        const type = url.searchParams.get('type') ?? undefined;
        if (type !== undefined && !isRecordType(type))
          return problem(`type must be one of ${RECORD_TYPES.join(', ')}.`);
        store.delete(zone, name, type);
        return new Response(null, { status: 204 });
      }
      default:
        return json({ message: 'Method not allowed' }, 405, { allow: 'GET, PUT, DELETE' });
    }
  };
}
