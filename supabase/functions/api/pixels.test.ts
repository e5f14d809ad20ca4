/**
 * Pixels through the public API: a link created or changed with the account's pixels answers
 * them, an empty list takes them off, and another account's pixel is refused with nothing
 * written.
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { createApiHandler } from './app.ts';
import {
  apiDependencies,
  call,
  cleanUp,
  createDomain,
  createUser,
  mintToken,
  suffix,
} from './test-scene.ts';

const api = createApiHandler(apiDependencies());

async function addPixel(accountId: string, provider: string, pixelId: string): Promise<string> {
  const [row] = await sql()<{ id: string }[]>`
    insert into public.pixels (account_id, provider, pixel_id, name)
    values (${accountId}, ${provider}, ${pixelId}, 'API') returning id`;
  return row!.id;
}

Deno.test(
  'links are created and changed with the account’s pixels, and no one else’s',
  async () => {
    try {
      const user = await createUser({ features: ['use_api'] });
      const other = await createUser({ features: ['use_api'] });
      const domain = await createDomain();
      const { token } = await mintToken({
        accountId: user.accountId,
        userId: user.id,
        abilities: ['links:read', 'links:write'],
      });
      const meta = await addPixel(user.accountId, 'meta', '123456789012345');
      const tiktok = await addPixel(user.accountId, 'tiktok', 'ABCDEFGHIJ0123456789');
      const foreign = await addPixel(other.accountId, 'linkedin', '5123456');

      const created = await call(api, 'POST', '/v1/links', {
        token,
        body: { url: `https://example.com/${suffix()}`, domain: domain.domain, pixels: [meta] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.pixels, [meta]);

      const id = created.body.id as string;
      const both = await call(api, 'PATCH', `/v1/links/${id}`, {
        token,
        body: { pixels: [tiktok, meta] },
      });
      assert.equal(both.status, 200, JSON.stringify(both.body));
      assert.deepEqual(both.body.pixels, [meta, tiktok].sort());

      const refused = await call(api, 'PATCH', `/v1/links/${id}`, {
        token,
        body: { pixels: [foreign] },
      });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'pixel_not_found');
      const malformed = await call(api, 'PATCH', `/v1/links/${id}`, {
        token,
        body: { pixels: ['<script>'] },
      });
      assert.equal(malformed.status, 422);
      const read = await call(api, 'GET', `/v1/links/${id}`, { token });
      assert.deepEqual(read.body.pixels, [meta, tiktok].sort(), 'nothing changed');

      const none = await call(api, 'PATCH', `/v1/links/${id}`, { token, body: { pixels: [] } });
      assert.deepEqual(none.body.pixels, []);
    } finally {
      await cleanUp();
      await closeSql();
    }
  },
);
