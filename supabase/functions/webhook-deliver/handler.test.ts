import assert from 'node:assert/strict';
import { deliverWebhooks } from './handler.ts';

// The delivery itself runs against the stack in supabase/tests/webhooks/delivery.test.ts.
Deno.test('only a POST with the service role key runs deliveries', async () => {
  // Test files run one after another: the runtime's key is put back at the end.
  const before = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY');
  Deno.env.set('SUPABASE_SERVICE_ROLE_KEY', 'service-key-for-this-test');
  try {
    const call = (method: string, key: string) =>
      deliverWebhooks(
        new Request('http://functions.test/webhook-deliver', {
          method,
          headers: { Authorization: `Bearer ${key}` },
        }),
      );
    const get = await call('GET', 'service-key-for-this-test');
    assert.equal(get.status, 405);
    const anon = await call('POST', 'an-anon-or-user-token');
    assert.equal(anon.status, 403);
    assert.deepEqual(await anon.json(), {
      code: 'forbidden',
      message: 'Only the service role runs deliveries',
    });
  } finally {
    if (before === undefined) Deno.env.delete('SUPABASE_SERVICE_ROLE_KEY');
    else Deno.env.set('SUPABASE_SERVICE_ROLE_KEY', before);
  }
});
