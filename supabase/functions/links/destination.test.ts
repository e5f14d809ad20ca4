import assert from 'node:assert/strict';
import { HttpError } from '../_shared/http.ts';
import { closeSql } from '../_shared/sql.ts';
import {
  checkDomains,
  checkShape,
  hostCandidates,
  lookupDomainsInDatabase,
} from './destination.ts';
import { banDomain, cleanUp, createDomain, suffix } from './test-scene.ts';

async function urlError(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    return `${error.code}: ${error.errors?.url?.[0]}`;
  }
  assert.fail('accepted');
}

Deno.test('step 1 judges the text alone and normalises what it accepts', async () => {
  const refused = async (url: string) => {
    const shape = await checkShape(url);
    return shape.ok ? 'accepted' : `${shape.code} ${shape.reason}`;
  };
  assert.equal(await refused('http://0x7f.1/'), 'url_not_allowed internal_address');
  assert.equal(await refused('javascript:alert(1)'), 'url_not_allowed scheme');
  assert.equal(await refused('https://a.com/\r\nX: y'), 'url_invalid control_character');
  assert.deepEqual(await checkShape('HTTPS://Example.COM./a b'), {
    ok: true,
    url: 'https://example.com/a%20b',
    host: 'example.com',
  });
});

Deno.test('candidates are the host and its parents; an address is only itself', () => {
  assert.deepEqual(hostCandidates('a.b.example.com'), [
    'a.b.example.com',
    'b.example.com',
    'example.com',
    'com',
  ]);
  assert.deepEqual(hostCandidates('8.8.8.8'), ['8.8.8.8']);
  assert.deepEqual(hostCandidates('[2606:4700::1111]'), ['[2606:4700::1111]']);
});

Deno.test('our short domains, banned domains and their subdomains are refused', async () => {
  try {
    const own = await createDomain();
    const banned = `banned-${suffix()}.example`;
    await banDomain(banned);
    const check = async (url: string) => {
      const shape = await checkShape(url);
      assert.ok(shape.ok, url);
      return checkDomains(shape, lookupDomainsInDatabase);
    };

    assert.equal(
      await urlError(() => check(`https://${own.domain}/x`)),
      'url_not_allowed: This URL is not allowed.',
    );
    assert.equal(
      await urlError(() => check(`https://WWW.${own.domain.toUpperCase()}./x`)),
      'url_not_allowed: This URL is not allowed.',
    );
    for (const url of [`https://${banned}/`, `http://deep.sub.${banned}:8080/p?q`]) {
      assert.equal(await urlError(() => check(url)), 'url_banned: This domain is banned.');
    }
    // Neighbours are fine, and the answer is the normalised URL.
    assert.deepEqual(await check(`HTTPS://not${banned}/A`), {
      ok: true,
      url: `https://not${banned}/A`,
      host: `not${banned}`,
    });
  } finally {
    await cleanUp();
    await closeSql();
  }
});
