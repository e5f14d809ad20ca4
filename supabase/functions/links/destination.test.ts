import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../shared/src/errors.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { destinations } from '../../tests/fixtures/hostile-destinations.ts';
import { checkShape } from './destination.ts';
import { createLinksHandler } from './handler.ts';
import {
  banDomain,
  cleanUp,
  createDomain,
  createUser,
  post,
  stackDependencies,
} from './test-scene.ts';

Deno.test('the pre-check judges the text alone and normalises what it accepts', async () => {
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

Deno.test(
  'the shared hostile destinations are refused by the function, writing nothing; the safe ones are stored normalised',
  async () => {
    const links = createLinksHandler(stackDependencies());
    try {
      const user = await createUser();
      const domain = await createDomain();
      // Our own short domain and the banned ones of the list, judged by the database alone.
      for (const own of destinations.shortDomains) await createDomain({ domain: own });
      for (const banned of destinations.bannedDomains) await banDomain(banned);
      const asUser = { authorization: user.authorization };
      const stored = async () => {
        const [row] = await sql()<{ long_urls: number; aliases: number }[]>`
          select (select count(*) from public.long_urls where account_id = ${user.accountId})::int
                   as long_urls,
                 (select count(*) from public.aliases where account_id = ${user.accountId})::int
                   as aliases`;
        return row;
      };

      for (const entry of destinations.hostile) {
        const answer = await post(
          links,
          'url/create',
          { url: entry.url, domain: domain.domain },
          asUser,
        );
        // The code's message on the url field (an empty URL is the form's validation_failed).
        assert.equal(answer.status, 422, entry.url);
        assert.deepEqual(answer.body.errors, { url: [ERROR_CODES[entry.code].message] }, entry.url);
      }
      assert.deepEqual(await stored(), { long_urls: 0, aliases: 0 });

      for (const entry of destinations.safe) {
        const answer = await post(
          links,
          'url/create',
          { url: entry.url, domain: domain.domain },
          asUser,
        );
        assert.equal(answer.status, 200, `${entry.url}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body[0].url, entry.stored, entry.url);
      }
      const urls = await sql()<{ url: string }[]>`
        select url from public.long_urls where account_id = ${user.accountId}`;
      assert.deepEqual(
        new Set(urls.map((row) => row.url)),
        new Set(destinations.safe.map((entry) => entry.stored)),
      );
    } finally {
      await cleanUp();
      await closeSql();
    }
  },
);
