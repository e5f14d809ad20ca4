import assert from 'node:assert/strict';
import { countryOf, loadCountryDatabase } from './geo.ts';

Deno.test('finds the country of well-known public addresses, IPv4 and IPv6', async () => {
  const cases: [string, string][] = [
    ['8.8.8.8', 'US'], // Google DNS
    ['81.2.69.142', 'GB'], // MaxMind's own test range
    ['193.0.6.139', 'NL'], // RIPE NCC, Amsterdam
    ['::ffff:193.0.6.139', 'NL'], // as a dual-stack socket reports it
    ['2a00:1450:4001:80b::200e', 'DE'], // Google, Frankfurt
    ['  8.8.8.8  ', 'US'],
  ];
  for (const [ip, country] of cases) assert.equal(await countryOf(ip), country, ip);
});

Deno.test('private, loopback, reserved and malformed addresses have no country', async () => {
  for (const ip of [
    '10.0.0.1',
    '192.168.1.1',
    '172.16.5.4',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    'fd00::1',
    'fe80::1',
    '0.0.0.0',
    '192.0.2.1',
    '',
    'unknown',
    '8.8.8.8, 10.0.0.1',
    null,
    undefined,
  ])
    assert.equal(await countryOf(ip), null, String(ip));
});

Deno.test('the database loads once, offline, and lookups are fast afterwards', async () => {
  const started = performance.now();
  const first = loadCountryDatabase();
  assert.equal(loadCountryDatabase(), first, 'one load shared by every caller');
  await first;
  const loadMs = performance.now() - started;
  assert.ok(loadMs < 3_000, `loaded in ${loadMs.toFixed(0)} ms`);

  const lookups = 20_000;
  const begin = performance.now();
  for (let i = 0; i < lookups; i++)
    await countryOf(`${(i % 200) + 1}.${i % 256}.${(i >> 8) % 256}.1`);
  const perLookupUs = ((performance.now() - begin) * 1000) / lookups;
  assert.ok(perLookupUs < 100, `${perLookupUs.toFixed(1)} µs per lookup`);
});
