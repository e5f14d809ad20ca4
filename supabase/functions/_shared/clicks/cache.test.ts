import assert from 'node:assert/strict';
import { LinkCache, linkCacheKey, type LinkCacheOptions } from './cache.ts';

/** A pretend table of links and its change counter, with a clock the test moves. */
function world() {
  const links = new Map<string, string>([['tiny.test/abc', 'https://one.example/']]);
  const state = { epoch: 1n, epochReads: 0, loads: 0, now: 1_000_000 };
  const change = (key: string, url: string | null) => {
    if (url === null) links.delete(key);
    else links.set(key, url);
    state.epoch++;
  };
  const load = (key: string) => () => {
    state.loads++;
    return Promise.resolve(links.get(key) ?? null);
  };
  const cache = (options: Partial<LinkCacheOptions> = {}) =>
    new LinkCache<string>({
      readEpoch: () => {
        state.epochReads++;
        return Promise.resolve(state.epoch);
      },
      now: () => state.now,
      ...options,
    });
  return { links, state, change, load, cache };
}

Deno.test('serves repeated lookups from memory', async () => {
  const { state, load, cache } = world();
  const links = cache();
  const key = 'tiny.test/abc';
  assert.equal(await links.get(key, load(key)), 'https://one.example/');
  assert.equal(await links.get(key, load(key)), 'https://one.example/');
  assert.equal(state.loads, 1);
  assert.deepEqual(links.stats(), { size: 1, hits: 1, misses: 1, resets: 0 });
});

Deno.test('concurrent lookups of one key share one load', async () => {
  const { state, load, cache } = world();
  const links = cache();
  const key = 'tiny.test/abc';
  const answers = await Promise.all(Array.from({ length: 50 }, () => links.get(key, load(key))));
  assert.ok(answers.every((url) => url === 'https://one.example/'));
  assert.equal(state.loads, 1);
});

Deno.test(
  'a changed destination is seen within one second, with one epoch read per second',
  async () => {
    const { state, change, load, cache } = world();
    const links = cache();
    const key = 'tiny.test/abc';
    await links.get(key, load(key));
    change(key, 'https://two.example/');
    state.now += 500;
    // Within the second the old answer may still be served...
    assert.equal(await links.get(key, load(key)), 'https://one.example/');
    state.now += 500;
    // ...but not after it.
    assert.equal(await links.get(key, load(key)), 'https://two.example/');
    assert.equal(state.epochReads, 2);
    assert.equal(links.stats().resets, 1);
    // Many lookups within a second cost no further epoch read.
    for (let i = 0; i < 100; i++) await links.get(key, load(key));
    assert.equal(state.epochReads, 2);
  },
);

Deno.test('invalidate drops one key at once', async () => {
  const { state, links: table, load, cache } = world();
  table.set('tiny.test/other', 'https://other.example/');
  const links = cache();
  await links.get('tiny.test/abc', load('tiny.test/abc'));
  await links.get('tiny.test/other', load('tiny.test/other'));
  table.set('tiny.test/abc', 'https://changed.example/');
  links.invalidate('tiny.test/abc');
  assert.equal(await links.get('tiny.test/abc', load('tiny.test/abc')), 'https://changed.example/');
  assert.equal(
    await links.get('tiny.test/other', load('tiny.test/other')),
    'https://other.example/',
  );
  assert.equal(state.loads, 3);
});

Deno.test('a load that an invalidation overtook is not kept', async () => {
  const { cache } = world();
  const links = cache();
  let finish: (url: string) => void = () => {};
  const slow = links.get('tiny.test/abc', () => new Promise((resolve) => (finish = resolve)));
  await new Promise((resolve) => setTimeout(resolve, 0)); // the load has started
  links.invalidate('tiny.test/abc');
  finish('https://stale.example/');
  assert.equal(await slow, 'https://stale.example/', 'its own caller still gets it');
  assert.equal(
    await links.get('tiny.test/abc', () => Promise.resolve('https://fresh.example/')),
    'https://fresh.example/',
  );
});

Deno.test('notifications drop their key; a gap in epochs drops everything', async () => {
  const { state, links: table, change, load, cache } = world();
  table.set('tiny.test/other', 'https://other.example/');
  const links = cache();
  await links.get('tiny.test/abc', load('tiny.test/abc'));
  await links.get('tiny.test/other', load('tiny.test/other'));
  assert.equal(state.loads, 2);

  change('tiny.test/abc', 'https://two.example/');
  links.applyChange({ epoch: state.epoch, key: 'tiny.test/abc' });
  assert.equal(await links.get('tiny.test/abc', load('tiny.test/abc')), 'https://two.example/');
  assert.equal(
    await links.get('tiny.test/other', load('tiny.test/other')),
    'https://other.example/',
  );
  assert.equal(state.loads, 3, 'only the changed key was loaded again');
  assert.equal(links.stats().resets, 0);

  // Epoch 3 was never announced: 4 arrives, so anything may have changed.
  change('tiny.test/other', 'https://missed.example/');
  change('tiny.test/abc', 'https://three.example/');
  links.applyChange({ epoch: state.epoch, key: 'tiny.test/abc' });
  assert.equal(links.stats().size, 0);
  assert.equal(links.stats().resets, 1);
  assert.equal(
    await links.get('tiny.test/other', load('tiny.test/other')),
    'https://missed.example/',
  );

  // An old or repeated notification changes nothing.
  links.applyChange({ epoch: 2, key: 'tiny.test/other' });
  assert.equal(links.stats().size, 1);
  // Announced changes also spare the next epoch read a reset.
  state.now += 1_000;
  await links.get('tiny.test/other', load('tiny.test/other'));
  assert.equal(links.stats().resets, 1);
});

Deno.test('"no such link" is remembered briefly', async () => {
  const { state, links: table, load, cache } = world();
  const links = cache({ negativeTtlMs: 5_000, epochCheckMs: 60_000 });
  const key = 'tiny.test/nope';
  assert.equal(await links.get(key, load(key)), null);
  assert.equal(await links.get(key, load(key)), null);
  assert.equal(state.loads, 1);
  table.set(key, 'https://late.example/');
  state.now += 5_000;
  assert.equal(await links.get(key, load(key)), 'https://late.example/');
});

Deno.test('entries live at most ttlMs', async () => {
  const { state, load, cache } = world();
  const links = cache({ ttlMs: 60_000, epochCheckMs: 120_000 });
  const key = 'tiny.test/abc';
  await links.get(key, load(key));
  state.now += 59_999;
  await links.get(key, load(key));
  assert.equal(state.loads, 1);
  state.now += 1;
  await links.get(key, load(key));
  assert.equal(state.loads, 2);
});

Deno.test('the least recently used entry goes when the cache is full', async () => {
  const { state, links: table, load, cache } = world();
  for (const alias of ['a', 'b', 'c']) table.set(`tiny.test/${alias}`, `https://${alias}.example/`);
  const links = cache({ maxEntries: 2 });
  await links.get('tiny.test/a', load('tiny.test/a'));
  await links.get('tiny.test/b', load('tiny.test/b'));
  await links.get('tiny.test/a', load('tiny.test/a')); // a is now the most recent
  await links.get('tiny.test/c', load('tiny.test/c')); // b goes
  assert.equal(links.stats().size, 2);
  const loads = state.loads;
  await links.get('tiny.test/a', load('tiny.test/a'));
  assert.equal(state.loads, loads, 'a stayed');
  await links.get('tiny.test/b', load('tiny.test/b'));
  assert.equal(state.loads, loads + 1, 'b was evicted');
});

Deno.test('while the epoch cannot be read, cached links keep being served', async () => {
  const { state, load, cache } = world();
  let down = false;
  const links = cache({
    readEpoch: () => (down ? Promise.reject(new Error('connection refused')) : Promise.resolve(1n)),
  });
  const key = 'tiny.test/abc';
  await links.get(key, load(key));
  down = true;
  state.now += 2_000;
  const original = console.error;
  const logged: unknown[] = [];
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    assert.equal(await links.get(key, load(key)), 'https://one.example/');
  } finally {
    console.error = original;
  }
  assert.equal(state.loads, 1);
  assert.equal(logged.length, 1);
});

Deno.test('a failed load is not cached and the next lookup tries again', async () => {
  const { cache } = world();
  const links = cache();
  await assert.rejects(
    links.get('k', () => Promise.reject(new Error('timeout'))),
    /timeout/,
  );
  assert.equal(
    await links.get('k', () => Promise.resolve('https://ok.example/')),
    'https://ok.example/',
  );
});

Deno.test('linkCacheKey lower-cases the host only', () => {
  assert.equal(linkCacheKey('Tiny.TEST.', 'AbC'), 'tiny.test/AbC');
  assert.throws(
    () => new LinkCache({ readEpoch: () => Promise.resolve(1), maxEntries: 0 }),
    RangeError,
  );
});

Deno.test(
  'cached answers a hit at once, and nothing it could not serve without waiting',
  async () => {
    const { state, links: table, change, load, cache } = world();
    table.set('tiny.test/nope', 'https://gone.example/');
    const links = cache({ ttlMs: 60_000, negativeTtlMs: 5_000, epochCheckMs: 1_000 });
    const key = 'tiny.test/abc';
    assert.equal(links.cached(key), undefined, 'nothing loaded yet');
    await links.get(key, load(key));
    assert.equal(links.cached(key), 'https://one.example/');
    assert.deepEqual(links.stats(), { size: 1, hits: 1, misses: 1, resets: 0 });
    // "No such link" is an answer too.
    table.delete('tiny.test/nope');
    await links.get('tiny.test/nope', load('tiny.test/nope'));
    assert.equal(links.cached('tiny.test/nope'), null);

    // Invalidated: not served, and get loads it again.
    change(key, 'https://two.example/');
    links.applyChange({ epoch: state.epoch, key });
    assert.equal(links.cached(key), undefined);
    assert.equal(await links.get(key, load(key)), 'https://two.example/');
    assert.equal(links.cached(key), 'https://two.example/');

    // The epoch is due for a read: only get may answer (and reads it).
    state.now += 1_000;
    assert.equal(links.cached(key), undefined);
    const reads = state.epochReads;
    assert.equal(await links.get(key, load(key)), 'https://two.example/');
    assert.equal(state.epochReads, reads + 1);
    assert.equal(links.cached(key), 'https://two.example/');

    const loads = state.loads;
    links.clear();
    assert.equal(links.cached(key), undefined, 'cleared');
    await links.get(key, load(key));
    assert.equal(state.loads, loads + 1);
  },
);

Deno.test('cached keeps recency: a key it serves is not the next to go', async () => {
  const { links: table, load, cache } = world();
  for (const alias of ['a', 'b', 'c']) table.set(`tiny.test/${alias}`, `https://${alias}.example/`);
  const links = cache({ maxEntries: 2 });
  await links.get('tiny.test/a', load('tiny.test/a'));
  await links.get('tiny.test/b', load('tiny.test/b'));
  assert.equal(links.cached('tiny.test/a'), 'https://a.example/');
  await links.get('tiny.test/c', load('tiny.test/c')); // b goes, not a
  assert.equal(links.cached('tiny.test/a'), 'https://a.example/');
  assert.equal(links.cached('tiny.test/b'), undefined);
});

Deno.test('cached serves nothing past its TTL', async () => {
  const { state, load, cache } = world();
  const links = cache({ ttlMs: 60_000, negativeTtlMs: 5_000, epochCheckMs: 120_000 });
  await links.get('tiny.test/abc', load('tiny.test/abc'));
  await links.get('tiny.test/nope', load('tiny.test/nope'));
  state.now += 4_999;
  assert.equal(links.cached('tiny.test/nope'), null);
  state.now += 1;
  assert.equal(links.cached('tiny.test/nope'), undefined, '"no such link" kept 5 s');
  state.now += 54_999;
  assert.equal(links.cached('tiny.test/abc'), 'https://one.example/');
  state.now += 1;
  assert.equal(links.cached('tiny.test/abc'), undefined, 'a link kept 60 s');
});
