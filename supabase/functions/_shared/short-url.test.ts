import assert from 'node:assert/strict';
import { shortUrl, shortUrlBaseFromEnv } from './short-url.ts';

const envOf = (values: Record<string, string>) => ({ get: (name: string) => values[name] });

Deno.test('without SHORT_URL_BASE, short URLs are production https on the bare domain', () => {
  const base = shortUrlBaseFromEnv(envOf({}));
  assert.equal(
    shortUrl({ domain: 'shrt.example', alias: 'abc' }, base),
    'https://shrt.example/abc',
  );
});

Deno.test("SHORT_URL_BASE gives the local stack's scheme and port", () => {
  const base = shortUrlBaseFromEnv(envOf({ SHORT_URL_BASE: 'http://{domain}:25321' }));
  assert.equal(
    shortUrl({ domain: 'shrt.localhost', alias: 'abc' }, base),
    'http://shrt.localhost:25321/abc',
  );
});

Deno.test('a malformed SHORT_URL_BASE is refused with the variable named', () => {
  assert.throws(
    () => shortUrlBaseFromEnv(envOf({ SHORT_URL_BASE: 'http://localhost:54321' })),
    /^Error: SHORT_URL_BASE must look like/,
  );
});
