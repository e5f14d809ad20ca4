import assert from 'node:assert/strict';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { closeSql } from '../_shared/sql.ts';
import { DEFAULT_GUEST_QUOTA, guestQuotaInDatabase, parseGuestQuota } from './guest-quota.ts';
import { createLinksHandler } from './handler.ts';
import {
  cleanUp,
  createDomain,
  createRequest,
  guestAuthorization,
  sandboxToken,
  stackDependencies,
  suffix,
} from './test-scene.ts';

Deno.test('GUEST_LINK_RATE_LIMIT reads "<count>/<window>", and falls back on anything else', () => {
  assert.deepEqual(parseGuestQuota('10/1h'), { limit: 10, windowSeconds: 3600 });
  assert.deepEqual(parseGuestQuota(' 3 / 90s '), { limit: 3, windowSeconds: 90 });
  assert.deepEqual(parseGuestQuota('5/2m'), { limit: 5, windowSeconds: 120 });
  assert.deepEqual(parseGuestQuota(undefined), DEFAULT_GUEST_QUOTA);
  const original = console.error;
  const logged: string[] = [];
  console.error = (line: string) => logged.push(line);
  try {
    assert.deepEqual(parseGuestQuota('lots'), DEFAULT_GUEST_QUOTA);
    assert.deepEqual(parseGuestQuota('10/0h'), DEFAULT_GUEST_QUOTA);
  } finally {
    console.error = original;
  }
  assert.equal(logged.length, 2);
});

/** An address of the benchmarking range (RFC 2544): no country, so no CCPA box; fresh per run. */
const benchmarkAddress = () =>
  `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

Deno.test(
  'a guest address gets its quota, then 429 on the form until the window ends',
  async () => {
    const WINDOW_SECONDS = 2;
    const links = createLinksHandler(
      stackDependencies({ guestQuota: guestQuotaInDatabase({ limit: 2, windowSeconds: 2 }) }),
    );
    try {
      const domain = await createDomain({ allowForGuests: true });
      const create = async (forwardedFor: string) =>
        links(
          createRequest(
            'url/create',
            {
              url: `https://example.com/quota/${suffix()}`,
              domain: domain.domain,
              anti_robot_token: await sandboxToken(),
            },
            { authorization: guestAuthorization(), forwardedFor },
          ),
        );
      const address = benchmarkAddress();

      assert.equal((await create(address)).status, 200);
      assert.equal((await create(address)).status, 200);
      const refused = await create(address);
      assert.equal(refused.status, 429);
      assert.deepEqual(await refused.json(), {
        code: 'too_many_attempts',
        message: MESSAGES.tooManyAttempts,
        errors: { form: [MESSAGES.tooManyAttempts] },
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_SECONDS, `Retry-After ${retryAfter}`);

      // Another address has a quota of its own.
      const other = await create(benchmarkAddress());
      assert.equal(other.status, 200);
      await other.body?.cancel();

      await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 200));
      const again = await create(address);
      assert.equal(again.status, 200);
      await again.body?.cancel();
    } finally {
      await cleanUp();
      await closeSql();
    }
  },
);
