/**
 * The Name.com client against the stack's registrar sandbox, which speaks Name.com's wire format
 * (supabase/local/src/registrar-sandbox): what the purchase flow gets back, and how each refusal
 * reaches it as a RegistrarError. A small misbehaving server stands in for a registrar whose
 * answers do not match its API.
 */
import assert from 'node:assert/strict';
import { registrarSandbox, uniqueDomainName } from '../../../tests/support/registrar.ts';
import { stackEnv } from '../testing.ts';
import { createNameComRegistrar } from './namecom.ts';
import { type Registrar, RegistrarError, registrarFromEnv } from './registrar.ts';

const env = stackEnv();
if (!env.REGISTRAR_API_URL || !env.REGISTRAR_USERNAME || !env.REGISTRAR_TOKEN)
  throw new Error('The running stack has no registrar sandbox (REGISTRAR_* in stack.env)');
const settings = {
  REGISTRAR_API_URL: env.REGISTRAR_API_URL,
  REGISTRAR_USERNAME: env.REGISTRAR_USERNAME,
  REGISTRAR_TOKEN: env.REGISTRAR_TOKEN,
};
const control = registrarSandbox(settings);
const registrar: Registrar = registrarFromEnv({
  get: (name) => settings[name as keyof typeof settings],
});
const prices = await control.prices();

async function refused(
  call: () => Promise<unknown>,
  code: RegistrarError['code'],
  pattern?: RegExp,
): Promise<void> {
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof RegistrarError, `expected a RegistrarError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (pattern) assert.match(caught.message, pattern);
}

const yearsAfter = (iso: string, years: number) => {
  const date = new Date(iso);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString();
};

Deno.test(
  'checkAvailability answers each name asked, in order, with the registrar prices',
  async () => {
    const free = uniqueDomainName('io');
    const taken = uniqueDomainName('com');
    const premium = uniqueDomainName('app');
    await control.markTaken(taken);
    await control.setPremium(premium, { purchasePrice: 999.5 });

    const answers = await registrar.checkAvailability([
      free,
      taken.toUpperCase(),
      premium,
      free,
      'example.com',
    ]);
    assert.deepEqual(answers, [
      {
        domainName: free,
        purchasable: true,
        premium: false,
        purchasePrice: prices.io!.registration,
        renewalPrice: prices.io!.renewal,
      },
      { domainName: taken, purchasable: false, premium: false },
      {
        domainName: premium,
        purchasable: true,
        premium: true,
        purchasePrice: 999.5,
        renewalPrice: prices.app!.renewal,
      },
      answers[0]!,
      { domainName: 'example.com', purchasable: false, premium: false },
    ]);
  },
);

Deno.test(
  'checkAvailability asks Name.com 50 names at a time and takes IDNs in punycode',
  async () => {
    const names = Array.from({ length: 60 }, () => uniqueDomainName('xyz'));
    const answers = await registrar.checkAvailability([...names, 'Bücher.com.']);
    assert.deepEqual(answers.length, 61);
    assert.deepEqual(
      answers.slice(0, 60).map((answer) => answer.domainName),
      names,
    );
    assert.ok(answers.every((answer) => answer.purchasable));
    assert.deepEqual(answers[60]!.domainName, 'xn--bcher-kva.com');
    assert.deepEqual(await registrar.checkAvailability([]), []);
  },
);

Deno.test(
  'checkAvailability refuses a name that is not one before asking, and TLDs not sold',
  async () => {
    await refused(
      () => registrar.checkAvailability(['shortlane', uniqueDomainName()]),
      'invalid',
      /"shortlane"/,
    );
    await refused(() => registrar.checkAvailability(['a.com/path']), 'invalid');
    // Only names with TLDs Name.com does not sell: its 422.
    await refused(
      () => registrar.checkAvailability([uniqueDomainName('zz')]),
      'invalid',
      /Unprocessable/,
    );
  },
);

Deno.test(
  'register buys the years asked with auto-renewal off, and the name is then taken',
  async () => {
    const name = uniqueDomainName('com');
    const [offer] = await registrar.checkAvailability([name]);
    const order = await registrar.register({
      domainName: name,
      years: 2,
      purchasePrice: offer!.purchasePrice! + offer!.renewalPrice!,
      nameservers: ['NS1.Example.net', 'ns2.example.net.'],
    });
    assert.ok(order.order > 0);
    assert.deepEqual(
      order.totalPaid,
      Math.round((prices.com!.registration + prices.com!.renewal) * 100) / 100,
    );
    assert.deepEqual(order.domain.domainName, name);
    assert.deepEqual(order.domain.autorenewEnabled, false);
    assert.deepEqual(order.domain.nameservers, ['ns1.example.net', 'ns2.example.net']);
    const held = await control.domain(name);
    assert.deepEqual(order.domain.expireDate, new Date(held!.expireDate).toISOString());
    assert.deepEqual(order.domain.expireDate, yearsAfter(held!.createDate, 2));
    assert.deepEqual(await registrar.getDomain(name), order.domain);

    await refused(
      () => registrar.register({ domainName: name, years: 1, nameservers: [] }),
      'unavailable',
      /not available/,
    );
    const [after] = await registrar.checkAvailability([name]);
    assert.deepEqual(after!.purchasable, false);
  },
);

Deno.test('register refuses a premium name without its price, or at a stale one', async () => {
  const name = uniqueDomainName('dev');
  await control.setPremium(name, { purchasePrice: 480 });
  await refused(
    () => registrar.register({ domainName: name, years: 1, nameservers: [] }),
    'invalid',
    /required for premium/,
  );
  await refused(
    () => registrar.register({ domainName: name, years: 1, purchasePrice: 450, nameservers: [] }),
    'invalid',
    /does not match/,
  );
  const order = await registrar.register({
    domainName: name,
    years: 1,
    purchasePrice: 480,
    nameservers: [],
  });
  assert.deepEqual(order.totalPaid, 480);
});

Deno.test('register refuses bad input before any call', async () => {
  const name = uniqueDomainName();
  for (const input of [
    { domainName: name, years: 0, nameservers: [] },
    { domainName: name, years: 11, nameservers: [] },
    { domainName: name, years: 1.5, nameservers: [] },
    { domainName: name, years: 1, purchasePrice: -1, nameservers: [] },
    { domainName: name, years: 1, nameservers: ['not a host'] },
    { domainName: 'nodot', years: 1, nameservers: [] },
  ])
    await refused(() => registrar.register(input), 'invalid');
  assert.deepEqual(await control.domain(name), null);
});

Deno.test(
  'a retried register with the same idempotency key gets the first order, not a refusal',
  async () => {
    const name = uniqueDomainName('net');
    const input = {
      domainName: name,
      years: 1,
      nameservers: [],
      idempotencyKey: crypto.randomUUID(),
    };
    const first = await registrar.register(input);
    const retry = await registrar.register(input);
    assert.deepEqual(retry, first);
  },
);

Deno.test(
  'renew extends the expiry by the years asked; a domain not ours is not_found',
  async () => {
    const name = uniqueDomainName('org');
    const order = await registrar.register({ domainName: name, years: 1, nameservers: [] });
    const renewed = await registrar.renew({ domainName: name, years: 2 });
    assert.deepEqual(renewed.domain.expireDate, yearsAfter(order.domain.expireDate, 2));
    assert.deepEqual(renewed.totalPaid, Math.round(prices.org!.renewal * 2 * 100) / 100);
    assert.ok(renewed.order > order.order);

    await refused(() => registrar.renew({ domainName: uniqueDomainName(), years: 1 }), 'not_found');
    assert.deepEqual(await registrar.getDomain(uniqueDomainName()), null);
  },
);

Deno.test('a payment failure at the registrar reaches the renewal as payment, once', async () => {
  const name = uniqueDomainName('link');
  const order = await registrar.register({ domainName: name, years: 1, nameservers: [] });
  await control.failNext({ operation: 'renew', domainName: name, error: 'payment' });
  await refused(
    () => registrar.renew({ domainName: name, years: 1 }),
    'payment',
    /Insufficient Funds/,
  );
  assert.deepEqual((await registrar.getDomain(name))!.expireDate, order.domain.expireDate);
  const renewed = await registrar.renew({ domainName: name, years: 1 });
  assert.deepEqual(renewed.domain.expireDate, yearsAfter(order.domain.expireDate, 1));
});

Deno.test('registry outages, refused credentials and a dead host are unreachable', async () => {
  const name = uniqueDomainName('co');
  await control.failNext({ operation: 'register', domainName: name, error: 'unreachable' });
  await refused(
    () => registrar.register({ domainName: name, years: 1, nameservers: [] }),
    'unreachable',
    /Registry Connection Unavailable/,
  );
  await control.failNext({ operation: 'register', domainName: name, error: 'unavailable' });
  await refused(
    () => registrar.register({ domainName: name, years: 1, nameservers: [] }),
    'unavailable',
  );

  const impostor = createNameComRegistrar({
    apiUrl: settings.REGISTRAR_API_URL,
    username: settings.REGISTRAR_USERNAME,
    token: 'not-the-token',
  });
  await refused(() => impostor.checkAvailability([name]), 'unreachable', /REGISTRAR_TOKEN/);

  const closed = Deno.listen({ hostname: '127.0.0.1', port: 0 });
  const port = closed.addr.port;
  closed.close();
  const nowhere = createNameComRegistrar({
    apiUrl: `http://127.0.0.1:${port}`,
    username: 'u',
    token: 't',
  });
  await refused(() => nowhere.getDomain(name), 'unreachable', /could not be reached/);
});

Deno.test('registrarFromEnv needs the credentials and an http(s) URL', () => {
  const from = (values: Record<string, string>) => () =>
    registrarFromEnv({ get: (name) => values[name] });
  const error = (fn: () => unknown) => {
    try {
      fn();
    } catch (thrown) {
      return thrown;
    }
    return undefined;
  };
  const missing = error(from({ REGISTRAR_USERNAME: 'shortlane' }));
  assert.ok(missing instanceof RegistrarError && missing.code === 'unreachable');
  const badUrl = error(
    from({ REGISTRAR_USERNAME: 'u', REGISTRAR_TOKEN: 't', REGISTRAR_API_URL: 'ftp://x' }),
  );
  assert.ok(badUrl instanceof RegistrarError && /REGISTRAR_API_URL/.test(badUrl.message));
  assert.ok(error(from({ REGISTRAR_USERNAME: 'u', REGISTRAR_TOKEN: 't' })) === undefined);
});

/** A registrar whose answers do not match Name.com's API: each must be refused, not used. */
Deno.test('answers that do not match the API are refused as unreachable', async (t) => {
  let answer: { status: number; body: string } = { status: 200, body: '{}' };
  const server = Deno.serve(
    { hostname: '127.0.0.1', port: 0, onListen: () => {} },
    () =>
      new Response(answer.body, {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
  );
  const odd = createNameComRegistrar({
    apiUrl: `http://127.0.0.1:${server.addr.port}`,
    username: 'u',
    token: 't',
    timeoutMs: 2000,
  });
  const order = (domain: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ domain, order: 7, totalPaid: 12.5, ...extra });
  const good = { domainName: 'shortlane-odd.com', expireDate: '2027-11-27T08:00:00Z' };
  try {
    const cases: [string, number, string, () => Promise<unknown>][] = [
      ['an HTML page', 200, '<html>bad gateway</html>', () => odd.getDomain('shortlane-odd.com')],
      [
        'a name not asked',
        200,
        JSON.stringify({
          results: [{ domainName: 'other.com', purchasable: true, purchasePrice: 1 }],
        }),
        () => odd.checkAvailability(['shortlane-odd.com']),
      ],
      [
        'a negative price',
        200,
        JSON.stringify({
          results: [{ domainName: 'shortlane-odd.com', purchasable: true, purchasePrice: -5 }],
        }),
        () => odd.checkAvailability(['shortlane-odd.com']),
      ],
      [
        'no expiry',
        200,
        order({ domainName: 'shortlane-odd.com' }),
        () => odd.register({ domainName: 'shortlane-odd.com', years: 1, nameservers: [] }),
      ],
      [
        'another domain',
        200,
        order({ ...good, domainName: 'someone-else.com' }),
        () => odd.renew({ domainName: 'shortlane-odd.com', years: 1 }),
      ],
      [
        'no order number',
        200,
        JSON.stringify({ domain: good, totalPaid: 1 }),
        () => odd.renew({ domainName: 'shortlane-odd.com', years: 1 }),
      ],
      [
        'a 500 without a body',
        500,
        '',
        () => odd.renew({ domainName: 'shortlane-odd.com', years: 1 }),
      ],
      [
        'a rate limit',
        429,
        JSON.stringify({ message: 'Rate Limit Exceeded' }),
        () => odd.checkAvailability(['shortlane-odd.com']),
      ],
    ];
    for (const [what, status, body, call] of cases)
      await t.step(what, async () => {
        answer = { status, body };
        await refused(call, 'unreachable');
      });

    await t.step('a purchasable result without a price counts as not purchasable', async () => {
      answer = {
        status: 200,
        body: JSON.stringify({ results: [{ domainName: 'shortlane-odd.com', purchasable: true }] }),
      };
      assert.deepEqual(await odd.checkAvailability(['shortlane-odd.com']), [
        { domainName: 'shortlane-odd.com', purchasable: false, premium: false },
      ]);
    });
    await t.step('omitted defaults read as false and empty', async () => {
      answer = { status: 200, body: order(good) };
      assert.deepEqual((await odd.renew({ domainName: 'shortlane-odd.com', years: 1 })).domain, {
        domainName: 'shortlane-odd.com',
        expireDate: '2027-11-27T08:00:00.000Z',
        autorenewEnabled: false,
        nameservers: [],
      });
    });
  } finally {
    await server.shutdown();
  }
});
