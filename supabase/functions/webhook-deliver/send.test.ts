import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { attempt, type ClaimedDelivery, mapLimited, signedHeaders } from './send.ts';

const delivery: ClaimedDelivery = {
  queue_message_id: '7',
  delivery_id: '00000000-0000-4000-8000-000000000001',
  message_id: 'msg_0123456789abcdef0123456789abcdef',
  url: 'http://receiver.test/hook',
  // 24 bytes of 0x01, base64.
  secret: 'whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB',
  body: '{"type":"link.created","timestamp":"2026-11-26T00:00:00.000Z","data":{"id":"x"}}',
  attempts: 0,
};

Deno.test('the headers carry the Standard Webhooks signature a verifier accepts', async () => {
  const at = new Date();
  const headers = signedHeaders(delivery, at);
  assert.equal(headers['webhook-id'], delivery.message_id);
  assert.equal(headers['webhook-timestamp'], String(Math.floor(at.getTime() / 1000)));
  // v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the secret's base64 bytes.
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(24).fill(1),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign(
    'HMAC',
    key,
    new TextEncoder().encode(
      `${delivery.message_id}.${headers['webhook-timestamp']}.${delivery.body}`,
    ),
  );
  assert.equal(
    headers['webhook-signature'],
    `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`,
  );
  assert.deepEqual(
    new Webhook(delivery.secret).verify(delivery.body, headers),
    JSON.parse(delivery.body),
  );
});

Deno.test(
  'an attempt reports the status, a non-2xx as an error, and a transport failure',
  async () => {
    const answering =
      (status: number): typeof fetch =>
      () =>
        Promise.resolve(new Response(null, { status }));
    const ok = await attempt(delivery, answering(204));
    assert.deepEqual([ok.status, ok.error, ok.queue_message_id], [204, null, '7']);
    assert.ok(ok.latency_ms >= 0);
    const failed = await attempt(delivery, answering(500));
    assert.deepEqual([failed.status, failed.error], [500, 'HTTP 500']);
    const down = await attempt(delivery, () => Promise.reject(new TypeError('connection refused')));
    assert.deepEqual([down.status, down.error], [null, 'connection refused']);
  },
);

Deno.test('mapLimited keeps the order and never runs more than the limit at once', async () => {
  let running = 0;
  let peak = 0;
  const results = await mapLimited([5, 1, 4, 2, 3], 2, async (n) => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, n));
    running -= 1;
    return n * 10;
  });
  assert.deepEqual(results, [50, 10, 40, 20, 30]);
  assert.equal(peak, 2);
});
