/**
 * The hCaptcha adapter against the local stack's sandbox, over HTTP through the gateway: the
 * same code path production takes against api.hcaptcha.com. Needs a running stack (as the other
 * stack-backed function tests do): `npm test` provides one.
 */
import assert from 'node:assert/strict';
import { stackEnv } from '../testing.ts';
import { botCheckError, BOT_CHECK_FAILED_MESSAGE } from './bot-check.ts';
import { botCheckFromEnv, SANDBOX_SITEKEY } from './env.ts';
import { quietly } from './testing.ts';

const { SUPABASE_URL } = stackEnv();
const sandbox = () =>
  botCheckFromEnv({ get: (name) => ({ BOT_CHECK_PROVIDER: 'sandbox', SUPABASE_URL })[name] });

/** What the portal's sandbox widget does to "solve" the challenge. */
async function solve(sitekey = SANDBOX_SITEKEY): Promise<string> {
  const response = await fetch(`${SUPABASE_URL}/sandbox/hcaptcha/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' },
    body: JSON.stringify({ sitekey }),
  });
  assert.equal(response.status, 200);
  const body = await response.json();
  return body.response;
}

Deno.test('a solved sandbox token passes once, then is refused', async () => {
  const check = sandbox();
  const token = await solve();
  const first = await check.verify(token, '203.0.113.7');
  assert.equal(first.ok, true);
  assert.ok(first.ok && first.hostname === 'localhost');
  assert.ok(first.ok && Math.abs(Date.now() - Date.parse(first.challengeTs ?? '')) < 60_000);
  assert.deepEqual(await check.verify(token, '203.0.113.7'), {
    ok: false,
    reason: 'invalid_token',
    errorCodes: ['invalid-or-already-seen-response'],
  });
});

Deno.test('a forged token is refused by the sandbox', async () => {
  assert.deepEqual(await sandbox().verify('P1_forged.token'), {
    ok: false,
    reason: 'invalid_token',
    errorCodes: ['invalid-input-response'],
  });
});

Deno.test('a wrong secret is our misconfiguration, and fails closed', async () => {
  const env: Record<string, string> = {
    BOT_CHECK_PROVIDER: 'sandbox',
    SUPABASE_URL,
    HCAPTCHA_SECRET: '0xwrong',
  };
  const check = botCheckFromEnv({ get: (name) => env[name] });
  const token = await solve();
  const { value, logged } = await quietly(() => check.verify(token));
  assert.deepEqual(value, {
    ok: false,
    reason: 'misconfigured',
    errorCodes: ['invalid-input-secret'],
  });
  assert.match(logged.join(), /invalid-input-secret/);
});

Deno.test('a failed check becomes the spec’s message on the anti_robot_token field', () => {
  const error = botCheckError();
  assert.equal(error.status, 422);
  assert.equal(error.code, 'anti_robot_failed');
  assert.equal(
    BOT_CHECK_FAILED_MESSAGE,
    'An error has occurred during turnstile validation, please try again. If the error persists, please contact us.',
  );
  assert.deepEqual(error.errors, { anti_robot_token: [BOT_CHECK_FAILED_MESSAGE] });
});
