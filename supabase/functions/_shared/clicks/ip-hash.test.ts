import assert from 'node:assert/strict';
import { ipHasher, ipHasherFromEnv } from './ip-hash.ts';

const salt = 'a-salt-of-sufficient-length';

/** HMAC-SHA-256 computed independently with node:crypto. */
async function expectedHash(key: string, message: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  return createHmac('sha256', key).update(message).digest('hex');
}

Deno.test('hashes the address with HMAC-SHA-256 keyed by the salt', async () => {
  const hash = await ipHasher(salt).hash('203.0.113.7');
  assert.equal(hash, await expectedHash(salt, '203.0.113.7'));
  assert.match(hash ?? '', /^[0-9a-f]{64}$/);
});

Deno.test('is not the unsalted hash, and differs per salt', async () => {
  const ip = '198.51.100.23';
  const a = await ipHasher(salt).hash(ip);
  const b = await ipHasher(`${salt}-other`).hash(ip);
  assert.notEqual(a, b);
  // Unsalted SHA-256 of the address (what a dictionary over IPv4 would find) is not it.
  const plain = Array.from(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(ip))),
    (byte) => byte.toString(16).padStart(2, '0'),
  ).join('');
  assert.notEqual(a, plain);
});

Deno.test('one client is one hash, whatever the spelling of its address', async () => {
  const hasher = ipHasher(salt);
  const v4 = await hasher.hash('203.0.113.7');
  assert.equal(await hasher.hash('::ffff:203.0.113.7'), v4);
  assert.equal(await hasher.hash(' 203.0.113.7 '), v4);
  assert.equal(await hasher.hash('2001:DB8:0::1'), await hasher.hash('2001:db8::1'));
  assert.notEqual(await hasher.hash('203.0.113.8'), v4);
});

Deno.test('anything that is not an address hashes to null', async () => {
  const hasher = ipHasher(salt);
  for (const text of [null, undefined, '', 'unknown', '203.0.113.7, 10.0.0.1', '999.1.1.1'])
    assert.equal(await hasher.hash(text), null, String(text));
});

Deno.test('the salt comes from CLICK_IP_SALT and must be long enough', async () => {
  const env = (value?: string) => ({
    get: (name: string) => (name === 'CLICK_IP_SALT' ? value : undefined),
  });
  assert.throws(() => ipHasherFromEnv(env()), /CLICK_IP_SALT is not set/);
  assert.throws(() => ipHasherFromEnv(env('short')), /CLICK_IP_SALT must have at least 16/);
  assert.throws(() => ipHasher('short'), /at least 16/);
  assert.equal(
    await ipHasherFromEnv(env(salt)).hash('203.0.113.7'),
    await expectedHash(salt, '203.0.113.7'),
  );
});
