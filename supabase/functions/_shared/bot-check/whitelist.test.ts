import assert from 'node:assert/strict';
import type { BotCheck, BotCheckResult } from './bot-check.ts';
import { quietly } from './testing.ts';
import { antiRobotConfig, BotCheckWhitelist, verifyGuest } from './whitelist.ts';

/** A check that records what it was asked and refuses everything. */
function recordingCheck(): BotCheck & {
  asked: [string | null | undefined, string | null | undefined][];
} {
  const asked: [string | null | undefined, string | null | undefined][] = [];
  return {
    siteKey: 'site-key',
    asked,
    verify(token, remoteIp): Promise<BotCheckResult> {
      asked.push([token, remoteIp]);
      return Promise.resolve({ ok: false, reason: 'invalid_token' });
    },
  };
}

Deno.test('the whitelist matches addresses and ranges of both families', () => {
  const whitelist = BotCheckWhitelist.parse('203.0.113.7, 198.51.100.0/24,2001:db8:1::/48');
  assert.equal(whitelist.size, 3);
  for (const ip of [
    '203.0.113.7',
    '198.51.100.1',
    '198.51.100.255',
    '2001:db8:1::5',
    ' 203.0.113.7 ',
  ])
    assert.equal(whitelist.has(ip), true, ip);
  for (const ip of ['203.0.113.8', '198.51.101.1', '2001:db8:2::5', '', null, undefined, 'junk'])
    assert.equal(whitelist.has(ip), false, String(ip));
});

Deno.test('one bad entry whitelists nobody', async () => {
  const { value: whitelist, logged } = await quietly(() =>
    BotCheckWhitelist.parse('203.0.113.7, office-network'),
  );
  assert.equal(whitelist.size, 0);
  assert.equal(whitelist.has('203.0.113.7'), false);
  assert.match(logged[0] ?? '', /"office-network" is not an address or range/);
});

Deno.test('an empty whitelist holds nobody', () => {
  for (const list of [undefined, '', ' , '])
    assert.equal(BotCheckWhitelist.parse(list).has('127.0.0.1'), false);
});

Deno.test(
  'antiRobotConfig tells the portal the sitekey and whether this client skips the widget',
  () => {
    const check = recordingCheck();
    const whitelist = BotCheckWhitelist.parse('203.0.113.0/24');
    assert.deepEqual(antiRobotConfig(check, whitelist, '203.0.113.9'), {
      site_key: 'site-key',
      whitelist: true,
    });
    assert.deepEqual(antiRobotConfig(check, whitelist, '198.51.100.9'), {
      site_key: 'site-key',
      whitelist: false,
    });
  },
);

Deno.test(
  'verifyGuest passes whitelisted clients without a token and verifies everyone else',
  async () => {
    const check = recordingCheck();
    const whitelist = BotCheckWhitelist.parse('203.0.113.0/24');
    assert.deepEqual(await verifyGuest(check, whitelist, undefined, '203.0.113.9'), { ok: true });
    assert.deepEqual(check.asked, []);
    assert.deepEqual(await verifyGuest(check, whitelist, 'P1_token', '198.51.100.9'), {
      ok: false,
      reason: 'invalid_token',
    });
    assert.deepEqual(check.asked, [['P1_token', '198.51.100.9']]);
  },
);
