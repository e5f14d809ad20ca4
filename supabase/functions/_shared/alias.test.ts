import assert from 'node:assert/strict';
import {
  ALIAS_ALPHABET,
  ALIAS_COLLISION,
  type AliasCollision,
  AliasExhaustedError,
  createWithUniqueAlias,
  randomAlias,
} from './alias.ts';

Deno.test('the alphabet is exactly the 62 base62 characters', () => {
  assert.equal(ALIAS_ALPHABET.length, 62);
  assert.equal(new Set(ALIAS_ALPHABET).size, 62);
  assert.match(ALIAS_ALPHABET, /^[0-9A-Za-z]+$/);
});

Deno.test('randomAlias gives 7 base62 characters by default, and longer on request', () => {
  for (let i = 0; i < 1000; i++) assert.match(randomAlias(), /^[0-9A-Za-z]{7}$/);
  assert.match(randomAlias(12), /^[0-9A-Za-z]{12}$/);
  assert.match(randomAlias(64), /^[0-9A-Za-z]{64}$/);
});

Deno.test('randomAlias refuses lengths below 7 or absurd ones', () => {
  for (const length of [0, 6, -1, 7.5, 65, Number.NaN])
    assert.throws(() => randomAlias(length), RangeError, String(length));
});

Deno.test('randomAlias draws from the CSPRNG', () => {
  const original = crypto.getRandomValues;
  let calls = 0;
  crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
    calls++;
    return original.call(crypto, array as Uint8Array) as T;
  };
  try {
    randomAlias();
  } finally {
    crypto.getRandomValues = original;
  }
  assert.ok(calls >= 1);
});

Deno.test('randomAlias skips the bytes that would bias the first characters', () => {
  // Feed bytes 248..255 first: with plain modulo they would map to '0'..'7'.
  const original = crypto.getRandomValues;
  const feed = [248, 249, 250, 251, 252, 253, 254, 255, 61, 0, 10, 36, 247, 1, 2, 3];
  crypto.getRandomValues = <T extends ArrayBufferView | null>(array: T): T => {
    const bytes = array as Uint8Array;
    bytes.forEach((_, i) => (bytes[i] = feed.shift() ?? 5));
    return array;
  };
  try {
    // 61 → 'z', 0 → '0', 10 → 'A', 36 → 'a', 247 → 247 % 62 = 61 → 'z', 1 → '1', 2 → '2'.
    assert.equal(randomAlias(), 'z0Aaz12');
  } finally {
    crypto.getRandomValues = original;
  }
});

Deno.test('randomAlias is roughly uniform over the alphabet and never repeats in practice', () => {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  const aliases = 20_000;
  for (let i = 0; i < aliases; i++) {
    const alias = randomAlias();
    seen.add(alias);
    for (const char of alias) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  assert.equal(seen.size, aliases, '62^7 ≈ 3.5e12 aliases: 20 000 draws should not collide');
  assert.equal(counts.size, 62, 'every character appears');
  const expected = (aliases * 7) / 62; // ≈ 2258 per character
  let chiSquare = 0;
  for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected;
  // 61 degrees of freedom: the 99.99th percentile is about 115. Modulo bias (bytes 248–255
  // folded onto '0'–'7') would make those 8 characters 25% more likely: chi² in the hundreds.
  assert.ok(chiSquare < 115, `chi² = ${chiSquare.toFixed(1)}`);
});

/** An inserter whose first `collisions` calls find the alias taken. */
function collidingInserter(collisions: number) {
  const tried: string[] = [];
  const insert = (alias: string): Promise<{ id: number } | AliasCollision> => {
    tried.push(alias);
    return Promise.resolve(tried.length <= collisions ? ALIAS_COLLISION : { id: tried.length });
  };
  return { tried, insert };
}

Deno.test('createWithUniqueAlias returns the first alias that was stored', async () => {
  const { tried, insert } = collidingInserter(0);
  const created = await createWithUniqueAlias(insert);
  assert.deepEqual(created, { alias: tried[0], result: { id: 1 }, attempts: 1 });
  assert.match(created.alias, /^[0-9A-Za-z]{7}$/);
});

Deno.test('createWithUniqueAlias tries a new alias after each collision', async () => {
  const { tried, insert } = collidingInserter(3);
  const created = await createWithUniqueAlias(insert, { attempts: 5 });
  assert.equal(created.attempts, 4);
  assert.equal(tried.length, 4);
  assert.equal(new Set(tried).size, 4, 'each attempt uses a fresh alias');
  assert.equal(created.alias, tried[3]);
  assert.deepEqual(created.result, { id: 4 });
});

Deno.test('createWithUniqueAlias gives up clearly after the last attempt', async () => {
  const { tried, insert } = collidingInserter(10);
  await assert.rejects(createWithUniqueAlias(insert, { attempts: 3 }), (error) => {
    assert.ok(error instanceof AliasExhaustedError);
    assert.equal(error.attempts, 3);
    assert.equal(error.message, 'No free random alias found after 3 attempts');
    return true;
  });
  assert.equal(tried.length, 3);
});

Deno.test('createWithUniqueAlias does not retry other failures', async () => {
  let calls = 0;
  const failing = () => {
    calls++;
    return Promise.reject(new Error('permission denied'));
  };
  await assert.rejects(createWithUniqueAlias(failing, { attempts: 5 }), /permission denied/);
  assert.equal(calls, 1);
});

Deno.test('createWithUniqueAlias uses the length and generator it is given', async () => {
  const lengths: number[] = [];
  const sequence = ['first01', 'second2'];
  const created = await createWithUniqueAlias(
    (alias) => Promise.resolve(alias === 'first01' ? ALIAS_COLLISION : alias.toUpperCase()),
    {
      length: 9,
      generate: (length) => {
        lengths.push(length);
        return sequence.shift() ?? 'exhausted';
      },
    },
  );
  assert.deepEqual(created, { alias: 'second2', result: 'SECOND2', attempts: 2 });
  assert.deepEqual(lengths, [9, 9]);
  await assert.rejects(
    createWithUniqueAlias(() => Promise.resolve(1), { attempts: 0 }),
    RangeError,
  );
});
