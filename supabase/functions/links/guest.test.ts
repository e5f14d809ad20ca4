import assert from 'node:assert/strict';
import { BOT_CHECK_FAILED_MESSAGE } from '../_shared/bot-check/bot-check.ts';
import { HttpError } from '../_shared/http.ts';
import { admitGuest, CCPA_NOT_ACCEPTED, ccpaRequired, type GuestChecks } from './guest.ts';
import { sandboxToken, stackDependencies } from './test-scene.ts';

const checks: GuestChecks = stackDependencies().guest;
const US = '8.8.8.8';
const NL = '193.0.6.139';
const WHITELISTED = '192.0.2.44';

async function refusedOn(attempt: Parameters<typeof admitGuest>[1]): Promise<string> {
  try {
    await admitGuest(checks, attempt);
  } catch (error) {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 422);
    const fields = Object.keys(error.errors ?? {});
    assert.equal(fields.length, 1);
    return `${fields[0]}: ${error.errors?.[fields[0]!]?.[0]}`;
  }
  assert.fail('admitted');
}

Deno.test('CCPA is asked of guests located in the US only', async () => {
  assert.equal(await ccpaRequired(checks, US), true);
  assert.equal(await ccpaRequired(checks, '2001:4860:4860::8888'), true);
  assert.equal(await ccpaRequired(checks, NL), false);
  // No country known (private, reserved, none): nothing says the region demands it.
  assert.equal(await ccpaRequired(checks, '10.1.2.3'), false);
  assert.equal(await ccpaRequired(checks, null), false);
});

Deno.test('a US guest without CCPA is refused before the bot check spends the token', async () => {
  const token = await sandboxToken();
  const base = { clientIp: US, antiRobotToken: token };
  assert.equal(
    await refusedOn({ ...base, ccpaAccepted: false }),
    `ccpa_accepted: ${CCPA_NOT_ACCEPTED}`,
  );
  // The same token still works once CCPA is accepted.
  await admitGuest(checks, { ...base, ccpaAccepted: true });
});

Deno.test(
  'the bot check wants a fresh sandbox token: missing, forged and replayed ones fail',
  async () => {
    const failed = `anti_robot_token: ${BOT_CHECK_FAILED_MESSAGE}`;
    const attempt = { clientIp: NL, ccpaAccepted: false };
    assert.equal(await refusedOn({ ...attempt, antiRobotToken: null }), failed);
    assert.equal(await refusedOn({ ...attempt, antiRobotToken: 'P1_forged.token' }), failed);
    const token = await sandboxToken();
    await admitGuest(checks, { ...attempt, antiRobotToken: token });
    assert.equal(await refusedOn({ ...attempt, antiRobotToken: token }), failed);
  },
);

Deno.test('whitelisted addresses skip the bot check, others do not', async () => {
  await admitGuest(checks, { clientIp: WHITELISTED, antiRobotToken: null, ccpaAccepted: false });
  assert.match(
    await refusedOn({ clientIp: NL, antiRobotToken: null, ccpaAccepted: false }),
    /^anti_robot_token: /,
  );
});
