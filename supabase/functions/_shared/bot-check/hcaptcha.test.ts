import assert from 'node:assert/strict';
import { HCaptchaBotCheck, MAX_TOKEN_LENGTH } from './hcaptcha.ts';
import { quietly, siteverifyStub } from './testing.ts';

const verdict = (body: unknown, status = 200) => Response.json(body, { status });

Deno.test(
  'posts secret, response, remoteip and sitekey as a form, and passes on success',
  async () => {
    const stub = siteverifyStub(() =>
      verdict({ success: true, challenge_ts: '2026-11-22T10:00:00Z', hostname: 'shortlane.test' }),
    );
    try {
      const check = new HCaptchaBotCheck({
        secret: '0xsecret',
        siteKey: 'site-key',
        siteverifyUrl: stub.url,
      });
      const result = await check.verify('P1_token', '::ffff:203.0.113.7');
      assert.deepEqual(result, {
        ok: true,
        hostname: 'shortlane.test',
        challengeTs: '2026-11-22T10:00:00Z',
      });
      assert.equal(stub.calls.length, 1);
      assert.equal(stub.calls[0]?.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(stub.calls[0]?.fields, {
        secret: '0xsecret',
        response: 'P1_token',
        remoteip: '203.0.113.7',
        sitekey: 'site-key',
      });
      assert.equal(check.siteKey, 'site-key');
    } finally {
      await stub.close();
    }
  },
);

Deno.test(
  'leaves out a remote address that is not one, and a sitekey it does not have',
  async () => {
    const stub = siteverifyStub(() => verdict({ success: true }));
    try {
      const check = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url });
      await check.verify('P1_token', 'unknown, 10.0.0.1');
      assert.deepEqual(stub.calls[0]?.fields, { secret: 's', response: 'P1_token' });
      assert.equal(check.siteKey, null);
    } finally {
      await stub.close();
    }
  },
);

Deno.test('maps siteverify error codes to reasons', async () => {
  const cases: [string[], string][] = [
    [['invalid-input-response'], 'invalid_token'],
    [['invalid-or-already-seen-response'], 'invalid_token'],
    [['expired-input-response'], 'invalid_token'],
    [['missing-input-response'], 'missing_token'],
    [['missing-input-secret'], 'misconfigured'],
    [['invalid-input-secret'], 'misconfigured'],
    [['sitekey-secret-mismatch'], 'misconfigured'],
    [['bad-request'], 'misconfigured'],
    [[], 'invalid_token'],
  ];
  let codes: string[] = [];
  const stub = siteverifyStub(() => verdict({ success: false, 'error-codes': codes }));
  try {
    const check = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url });
    for (const [errorCodes, reason] of cases) {
      codes = errorCodes;
      const { value } = await quietly(() => check.verify('P1_token'));
      assert.deepEqual(value, { ok: false, reason, errorCodes }, errorCodes.join());
    }
  } finally {
    await stub.close();
  }
});

Deno.test('fails closed without a secret, and never asks the provider', async () => {
  const stub = siteverifyStub(() => verdict({ success: true }));
  try {
    for (const secret of [undefined, '', '   ']) {
      const check = new HCaptchaBotCheck({ secret, siteverifyUrl: stub.url });
      const { value, logged } = await quietly(() => check.verify('P1_token'));
      assert.deepEqual(value, { ok: false, reason: 'misconfigured' });
      assert.match(logged.join(), /HCAPTCHA_SECRET/);
    }
    assert.equal(stub.calls.length, 0);
  } finally {
    await stub.close();
  }
});

Deno.test('refuses a missing or oversized token without asking the provider', async () => {
  const stub = siteverifyStub(() => verdict({ success: true }));
  try {
    const check = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url });
    for (const token of [undefined, null, '', '  '])
      assert.deepEqual(await check.verify(token), { ok: false, reason: 'missing_token' });
    assert.deepEqual(await check.verify('x'.repeat(MAX_TOKEN_LENGTH + 1)), {
      ok: false,
      reason: 'invalid_token',
    });
    assert.equal(stub.calls.length, 0);
  } finally {
    await stub.close();
  }
});

Deno.test('fails closed when the provider errs, answers nonsense or is unreachable', async () => {
  const answers: (() => Response)[] = [
    () => verdict({ success: true }, 500), // a 5xx is never a verdict
    () => new Response('<html>Bad gateway</html>', { status: 502 }),
    () => new Response('not json'),
    () => verdict({ ok: true }), // no boolean success
    () => verdict({ success: 'true' }),
    () => verdict(null),
  ];
  let answer = answers[0];
  const stub = siteverifyStub(() => answer!());
  try {
    const check = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url });
    for (const next of answers) {
      answer = next;
      const { value } = await quietly(() => check.verify('P1_token'));
      assert.deepEqual(value, { ok: false, reason: 'unavailable' });
    }
  } finally {
    await stub.close();
  }
  // Nothing listens there any more.
  const gone = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url });
  const { value } = await quietly(() => gone.verify('P1_token'));
  assert.deepEqual(value, { ok: false, reason: 'unavailable' });
});

Deno.test('fails closed when the provider is too slow', async () => {
  const stub = siteverifyStub(
    () => new Promise((resolve) => setTimeout(() => resolve(verdict({ success: true })), 1_500)),
  );
  try {
    const check = new HCaptchaBotCheck({ secret: 's', siteverifyUrl: stub.url, timeoutMs: 50 });
    const started = performance.now();
    const { value, logged } = await quietly(() => check.verify('P1_token'));
    assert.deepEqual(value, { ok: false, reason: 'unavailable' });
    assert.ok(performance.now() - started < 1_000, 'gave up at the timeout, not at the answer');
    assert.match(logged.join(), /TimeoutError/);
  } finally {
    await stub.close();
  }
});
