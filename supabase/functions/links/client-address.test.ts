import assert from 'node:assert/strict';
import { clientAddress, forwardedAddresses, parseTrustedProxies } from './client-address.ts';

const forwardedFor = (value: string | null) =>
  new Headers(value === null ? {} : { 'x-forwarded-for': value });
const loopback = parseTrustedProxies('127.0.0.0/8, ::1');

Deno.test('without trusted proxies the last hop is the client, whatever came before', () => {
  assert.equal(clientAddress(forwardedFor('192.0.2.1, 8.8.8.8'), []), '8.8.8.8');
  assert.equal(clientAddress(forwardedFor('127.0.0.1'), []), '127.0.0.1');
  assert.equal(clientAddress(forwardedFor(null), []), null);
  assert.equal(clientAddress(forwardedFor(''), []), null);
});

Deno.test('skips trusted proxies from the right and answers the first other hop', () => {
  assert.equal(clientAddress(forwardedFor('8.8.8.8, 127.0.0.1'), loopback), '8.8.8.8');
  assert.equal(clientAddress(forwardedFor('1.2.3.4, 8.8.8.8, 127.0.0.1'), loopback), '8.8.8.8');
  assert.equal(clientAddress(forwardedFor('8.8.8.8, ::1, 127.0.0.2'), loopback), '8.8.8.8');
  // Only proxies: the leftmost is the furthest that can be seen.
  assert.equal(clientAddress(forwardedFor('127.0.0.3, 127.0.0.1'), loopback), '127.0.0.3');
});

Deno.test('answers canonical addresses and stops at garbage', () => {
  assert.equal(clientAddress(forwardedFor('::ffff:8.8.8.8'), []), '8.8.8.8');
  assert.equal(
    clientAddress(forwardedFor('2001:4860:4860:0:0:0:0:8888'), []),
    '2001:4860:4860::8888',
  );
  assert.equal(clientAddress(forwardedFor('8.8.8.8, not-an-ip'), []), null);
  // What lies left of garbage is not believable; the trusted hop is all that is known.
  assert.equal(clientAddress(forwardedFor('8.8.8.8, unknown, 127.0.0.1'), loopback), '127.0.0.1');
});

Deno.test('one bad TRUSTED_PROXIES entry trusts nobody', () => {
  const logged: string[] = [];
  const original = console.error;
  console.error = (message: string) => logged.push(message);
  try {
    assert.deepEqual(parseTrustedProxies('127.0.0.0/8, nonsense'), []);
  } finally {
    console.error = original;
  }
  assert.match(logged[0] ?? '', /"nonsense" is not an address or range/);
  assert.deepEqual(parseTrustedProxies(undefined), []);
  assert.equal(parseTrustedProxies('10.0.0.0/8,::1').length, 2);
});

Deno.test('lists every well-formed address of the chain, canonical, for IP blocks', () => {
  const headers = new Headers({
    'x-forwarded-for': '203.0.113.9, garbage, ::FFFF:10.0.0.1 , 127.0.0.1',
  });
  // IPv4-mapped IPv6 is unwrapped, so a block on 10.0.0.0/8 matches it too.
  assert.deepEqual(forwardedAddresses(headers), ['203.0.113.9', '10.0.0.1', '127.0.0.1']);
  assert.deepEqual(forwardedAddresses(new Headers()), []);
});
