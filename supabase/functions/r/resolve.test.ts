import assert from 'node:assert/strict';
import { linkCacheKey } from '../_shared/clicks/cache.ts';
import {
  BatchLoader,
  type LinkKey,
  requestHost,
  resolvedFromRow,
  type ResolvedRow,
} from './resolve.ts';

Deno.test('misses that arrive while a lookup runs go together in the next one', async () => {
  const batches: string[][] = [];
  let release: () => void = () => {};
  const loader = new BatchLoader<string>(async (keys: LinkKey[]) => {
    batches.push(keys.map((key) => key.alias));
    if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    return new Map(keys.map((key) => [linkCacheKey(key.domain, key.alias), `url-${key.alias}`]));
  });
  const loads = ['a', 'b', 'c', 'd'].map((alias) => loader.load({ domain: 's.test', alias }));
  release();
  assert.deepEqual(await Promise.all(loads), ['url-a', 'url-b', 'url-c', 'url-d']);
  assert.deepEqual(batches, [['a'], ['b', 'c', 'd']]);
});

Deno.test(
  'a key the lookup does not answer is null; a failed lookup fails each of its loads',
  async () => {
    const empty = new BatchLoader<string>(() => Promise.resolve(new Map()));
    assert.equal(await empty.load({ domain: 's.test', alias: 'x' }), null);
    const broken = new BatchLoader<string>(() => Promise.reject(new Error('database down')));
    const loads = [
      broken.load({ domain: 's.test', alias: 'x' }),
      broken.load({ domain: 's.test', alias: 'y' }),
    ];
    for (const load of loads) await assert.rejects(load, /database down/);
  },
);

Deno.test('batches are capped at maxBatch keys', async () => {
  const sizes: number[] = [];
  const loader = new BatchLoader<string>(
    (keys) => {
      sizes.push(keys.length);
      return Promise.resolve(new Map());
    },
    { maxBatch: 2 },
  );
  await Promise.all(
    ['a', 'b', 'c', 'd', 'e'].map((alias) => loader.load({ domain: 's.test', alias })),
  );
  assert.deepEqual(sizes, [1, 2, 2]);
});

const row = (overrides: Partial<ResolvedRow>): ResolvedRow => ({
  routes: null,
  clicks: null,
  domain: 's.test',
  alias: 'abc',
  domain_usable: true,
  redirect_status: 302,
  root_redirect_url: null,
  not_found_redirect_url: null,
  alias_id: '00000000-0000-4000-8000-000000000001',
  account_id: null,
  alias_status: 'active',
  expires_at: null,
  url: 'https://example.com/',
  url_status: 'active',
  destination_banned: false,
  ...overrides,
});

Deno.test('a link’s state: the strongest reason it does not redirect', () => {
  const state = (overrides: Partial<ResolvedRow>) => resolvedFromRow(row(overrides)).link?.state;
  assert.equal(state({}), 'active');
  assert.equal(state({ alias_status: 'can_affiliate' }), 'active');
  assert.equal(state({ alias_status: 'deleted', destination_banned: true }), 'deleted');
  assert.equal(state({ url_status: 'terminated', destination_banned: true }), 'terminated');
  assert.equal(state({ alias_status: 'archived', destination_banned: true }), 'banned');
  assert.equal(state({ alias_status: 'archived' }), 'archived');
  assert.equal(state({ url_status: 'inactive' }), 'inactive');
  assert.equal(state({ url: 'javascript:alert(1)' }), 'invalid');
  assert.equal(resolvedFromRow(row({ alias_id: null })).link, null);
  assert.equal(resolvedFromRow(row({ redirect_status: 301 })).domain.redirectStatus, 301);
  assert.equal(
    resolvedFromRow(row({ expires_at: '2030-01-01T00:00:00Z' })).link?.expiresAt,
    Date.parse('2030-01-01T00:00:00Z'),
  );
});

Deno.test('the host: forwarded first, lower case, without port or trailing dot', () => {
  const host = (headers: Record<string, string>) =>
    requestHost(new Request('http://x/', { headers }));
  assert.equal(host({ host: 'Shrt.Localhost:54321' }), 'shrt.localhost');
  assert.equal(
    host({ host: 'gateway', 'x-forwarded-host': 'go.example.com., proxy' }),
    'go.example.com',
  );
});

Deno.test(
  'a link’s routes come with it; a route to something not a web address is left out',
  () => {
    const rule = { value: 'country', condition: 'if', operation: 'equals', operands: ['DE'] };
    const link = resolvedFromRow(
      row({
        routes: [
          { id: 'r1', url: 'https://example.de/', match: 'all', rules: [rule] },
          { id: 'r2', url: 'javascript:alert(1)', match: 'all', rules: [] },
        ],
      }),
    ).link;
    assert.deepEqual(
      link?.routes.map((route) => route.id),
      ['r1'],
    );
    assert.deepEqual(resolvedFromRow(row({})).link?.routes, []);
  },
);

Deno.test('a link’s pixels come with it; one without the provider’s format is left out', () => {
  const pixels = (value: unknown[] | null) => resolvedFromRow(row({ pixels: value })).link?.pixels;
  assert.deepEqual(pixels(null), []);
  assert.deepEqual(
    pixels([
      { provider: 'meta', id: '123456789012345' },
      { provider: 'meta', id: '1");alert(1);//' },
      { provider: 'nope', id: '1234' },
    ]),
    [{ provider: 'meta', id: '123456789012345' }],
  );
});
