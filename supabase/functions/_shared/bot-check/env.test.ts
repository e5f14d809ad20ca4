import assert from 'node:assert/strict';
import {
  botCheckFromEnv,
  botCheckWhitelistFromEnv,
  SANDBOX_SECRET,
  SANDBOX_SITEKEY,
} from './env.ts';
import { quietly, siteverifyStub } from './testing.ts';

const envOf = (values: Record<string, string>) => ({ get: (name: string) => values[name] });

Deno.test(
  'without a known provider every token is refused, and the log says why once',
  async () => {
    for (const [values, problem] of [
      [{}, /BOT_CHECK_PROVIDER is not set/],
      [
        { BOT_CHECK_PROVIDER: 'turnstile', HCAPTCHA_SECRET: 's' },
        /"turnstile" is not hcaptcha or sandbox/,
      ],
    ] as const) {
      const check = botCheckFromEnv(envOf(values));
      const { value, logged } = await quietly(async () => [
        await check.verify('P1_token', '203.0.113.7'),
        await check.verify('P1_token', '203.0.113.7'),
      ]);
      assert.deepEqual(value, [
        { ok: false, reason: 'misconfigured' },
        { ok: false, reason: 'misconfigured' },
      ]);
      assert.equal(logged.length, 1);
      assert.match(logged[0] ?? '', problem);
    }
  },
);

Deno.test('hcaptcha reads its secret, sitekey and siteverify URL from env', async () => {
  const stub = siteverifyStub(() => Response.json({ success: true }));
  try {
    const check = botCheckFromEnv(
      envOf({
        BOT_CHECK_PROVIDER: ' HCaptcha ',
        HCAPTCHA_SECRET: '0xlive',
        HCAPTCHA_SITEKEY: 'live-site',
        HCAPTCHA_SITEVERIFY_URL: stub.url,
      }),
    );
    assert.equal(check.siteKey, 'live-site');
    assert.deepEqual(await check.verify('P1_token'), {
      ok: true,
      hostname: undefined,
      challengeTs: undefined,
    });
    assert.deepEqual(stub.calls[0]?.fields, {
      secret: '0xlive',
      response: 'P1_token',
      sitekey: 'live-site',
    });
  } finally {
    await stub.close();
  }
});

Deno.test('hcaptcha without a secret fails closed (there is no default secret)', async () => {
  const stub = siteverifyStub(() => Response.json({ success: true }));
  try {
    const check = botCheckFromEnv(
      envOf({ BOT_CHECK_PROVIDER: 'hcaptcha', HCAPTCHA_SITEVERIFY_URL: stub.url }),
    );
    const { value } = await quietly(() => check.verify('P1_token'));
    assert.deepEqual(value, { ok: false, reason: 'misconfigured' });
    assert.equal(stub.calls.length, 0);
  } finally {
    await stub.close();
  }
});

Deno.test('sandbox defaults to the test keys and the local gateway’s siteverify', async () => {
  const stub = siteverifyStub(() => Response.json({ success: true }));
  try {
    const check = botCheckFromEnv(
      envOf({ BOT_CHECK_PROVIDER: 'sandbox', SUPABASE_URL: `${stub.origin}/` }),
    );
    assert.equal(check.siteKey, SANDBOX_SITEKEY);
    assert.equal((await check.verify('P1_token')).ok, true);
    assert.equal(stub.calls[0]?.path, '/sandbox/hcaptcha/siteverify');
    assert.deepEqual(stub.calls[0]?.fields, {
      secret: SANDBOX_SECRET,
      response: 'P1_token',
      sitekey: SANDBOX_SITEKEY,
    });
  } finally {
    await stub.close();
  }
});

Deno.test('an unusable siteverify URL fails closed', async () => {
  const cases: Record<string, string>[] = [
    { BOT_CHECK_PROVIDER: 'sandbox' }, // no SUPABASE_URL to derive it from
    { BOT_CHECK_PROVIDER: 'hcaptcha', HCAPTCHA_SECRET: 's', HCAPTCHA_SITEVERIFY_URL: 'not a url' },
    {
      BOT_CHECK_PROVIDER: 'hcaptcha',
      HCAPTCHA_SECRET: 's',
      HCAPTCHA_SITEVERIFY_URL: 'file:///etc/passwd',
    },
  ];
  for (const values of cases) {
    const { value, logged } = await quietly(() =>
      botCheckFromEnv(envOf(values)).verify('P1_token'),
    );
    assert.deepEqual(value, { ok: false, reason: 'misconfigured' }, JSON.stringify(values));
    assert.match(logged.join(), /siteverify URL/);
  }
});

Deno.test('the whitelist comes from BOT_CHECK_WHITELIST', () => {
  const whitelist = botCheckWhitelistFromEnv(
    envOf({ BOT_CHECK_WHITELIST: '203.0.113.0/24, 2001:db8::1' }),
  );
  assert.equal(whitelist.size, 2);
  assert.equal(whitelist.has('203.0.113.99'), true);
  assert.equal(botCheckWhitelistFromEnv(envOf({})).size, 0);
});
