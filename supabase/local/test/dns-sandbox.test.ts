import { Resolver } from 'node:dns/promises';
import { describe, expect, inject, it } from 'vitest';

const env = inject('stackEnv');
const api = env.DNS_SANDBOX_API;
const [host, port] = env.DNS_NAME_SERVER.split(':');
const headers = {
  apikey: env.SUPABASE_SERVICE_ROLE_KEY,
  'content-type': 'application/json',
};

function resolver(): Resolver {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`${host}:${port}`]);
  return resolver;
}

const uniqueZone = () => `t${crypto.randomUUID().slice(0, 8)}.example`;

async function put(zone: string, record: Record<string, unknown>) {
  return fetch(`${api}/zones/${zone}/records`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(record),
  });
}

describe('DNS sandbox', () => {
  it('answers a TXT record set through its API, and forgets it once deleted', async () => {
    const zone = uniqueZone();
    const set = await put(zone, { name: '_check', type: 'TXT', value: 'token-123' });
    expect(set.status).toBe(200);
    expect(await resolver().resolveTxt(`_check.${zone}`)).toEqual([['token-123']]);

    const removed = await fetch(`${api}/zones/${zone}/records?name=_check&type=TXT`, {
      method: 'DELETE',
      headers,
    });
    expect(removed.status).toBe(204);
    await expect(resolver().resolveTxt(`_check.${zone}`)).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('answers A, AAAA and CNAME, and follows a CNAME to an address it holds', async () => {
    const zone = uniqueZone();
    expect(
      (await put(zone, { name: 'target', type: 'A', values: ['192.0.2.1', '192.0.2.2'] })).status,
    ).toBe(200);
    expect((await put(zone, { name: 'target', type: 'AAAA', value: '2001:db8::1' })).status).toBe(
      200,
    );
    expect((await put(zone, { name: '@', type: 'CNAME', value: `target.${zone}` })).status).toBe(
      200,
    );

    const dns = resolver();
    expect((await dns.resolve4(`target.${zone}`)).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await dns.resolve6(`target.${zone}`)).toEqual(['2001:db8::1']);
    expect(await dns.resolveCname(zone)).toEqual([`target.${zone}`]);
    expect((await dns.resolve4(zone)).sort()).toEqual(['192.0.2.1', '192.0.2.2']);

    const listed = await fetch(`${api}/zones/${zone}/records`, { headers });
    expect(((await listed.json()) as { records: unknown[] }).records).toHaveLength(4);
  });

  it('refuses names outside its zones, and a record that does not fit its type', async () => {
    await expect(resolver().resolveTxt('nowhere.invalid')).rejects.toMatchObject({
      code: 'EREFUSED',
    });
    const zone = uniqueZone();
    const bad = await put(zone, { name: 'x', type: 'A', value: 'not-an-address' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: 'An A record needs an IPv4 address.' });
  });

  it('answers for an empty zone it holds (NXDOMAIN), refused again once the zone is deleted', async () => {
    const zone = uniqueZone();
    const created = await fetch(`${api}/zones/${zone}`, { method: 'PUT', headers });
    expect(created.status).toBe(201);
    expect((await fetch(`${api}/zones/${zone}`, { method: 'PUT', headers })).status).toBe(200);
    await expect(resolver().resolveTxt(`www.${zone}`)).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    expect((await fetch(`${api}/zones/${zone}`, { method: 'DELETE', headers })).status).toBe(204);
    await expect(resolver().resolveTxt(`www.${zone}`)).rejects.toMatchObject({
      code: 'EREFUSED',
    });
  });

  it('changes nothing for a caller without the service-role key', async () => {
    const zone = uniqueZone();
    const response = await fetch(`${api}/zones/${zone}/records`, {
      method: 'PUT',
      headers: { apikey: env.SUPABASE_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'TXT', value: 'x' }),
    });
    expect(response.status).toBe(401);
    const zones = await fetch(`${api}/zones`, { headers });
    expect(((await zones.json()) as { zones: string[] }).zones).not.toContain(zone);
  });
});
