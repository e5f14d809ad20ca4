import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createStripeSandbox, SANDBOX_STRIPE_SECRET_KEY } from '../src/stripe-sandbox/index.ts';
import { decodeForm } from '../src/stripe-sandbox/form.ts';

const env = inject('stackEnv');
const base = new URL(`${env.SUPABASE_URL}/sandbox/stripe`);

/** The official SDK pointed at the stack's sandbox, as the billing adapter points it. */
function sdk(key = SANDBOX_STRIPE_SECRET_KEY): Stripe {
  const prefix = base.pathname;
  return new Stripe(key, {
    host: base.hostname,
    port: Number(base.port),
    protocol: 'http',
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((input, init) => {
      const url = new URL(String(input));
      url.pathname = `${prefix}${url.pathname}`;
      return fetch(url, init);
    }),
  });
}

async function newSession(stripe: Stripe, trialDays?: number) {
  const customer = await stripe.customers.create({
    email: 'buyer@example.com',
    metadata: { account_id: 'acc-1' },
  });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 12900,
          recurring: { interval: 'year' },
          product_data: { name: 'Pro' },
        },
      },
    ],
    success_url:
      'http://localhost:5173/app/settings/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:5173/app/pricing',
    metadata: { account_id: 'acc-1' },
    subscription_data: {
      metadata: { account_id: 'acc-1' },
      ...(trialDays ? { trial_period_days: trialDays } : {}),
    },
  });
  return { customer, session };
}

async function pay(url: string, card: string) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      cardNumber: card,
      cardExpiry: '12 / 34',
      cardCvc: '123',
      billingName: 'Pat',
    }),
  });
}

describe('Stripe sandbox: form encoding', () => {
  it('decodes nested keys and indexed arrays as stripe-node writes them', () => {
    expect(
      decodeForm(
        'line_items[0][price]=p&line_items[0][quantity]=2&metadata[a]=b&expand[]=x&expand[]=y',
      ),
    ).toEqual({
      line_items: [{ price: 'p', quantity: '2' }],
      metadata: { a: 'b' },
      expand: ['x', 'y'],
    });
    expect(decodeForm('a]=1')).toBeNull();
  });
});

describe('Stripe sandbox: API through the official SDK', () => {
  it('refuses a missing or wrong secret key with Stripe’s 401 body', async () => {
    const response = await fetch(`${base}/v1/customers`, { method: 'POST' });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    await expect(sdk('sk_test_wrong').customers.create({})).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
      code: 'api_key_invalid',
    });
  });

  it('answers an unknown id with resource_missing and a missing param with parameter_missing', async () => {
    const stripe = sdk();
    await expect(stripe.subscriptions.retrieve('sub_nope')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
    });
    await expect(
      stripe.checkout.sessions.create({ mode: 'subscription', success_url: 'http://x/' }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'line_items' });
  });

  it('runs a checkout with 4242…: redirect with the session id, subscription, paid invoice, events', async () => {
    const stripe = sdk();
    const { customer, session } = await newSession(stripe);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.status).toBe('open');
    expect(session.url).toContain('/sandbox/stripe/c/pay/');

    const page = await fetch(session.url!);
    expect(await page.text()).toContain('$129.00');

    const paid = await pay(session.url!, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://localhost:5173/app/settings/subscription/success?session_id=${session.id}`,
    );

    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
    });
    const subscription = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(subscription.id).toMatch(/^sub_/);
    expect(subscription.status).toBe('active');
    expect(subscription.metadata).toEqual({ account_id: 'acc-1' });
    const item = subscription.items.data[0]!;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(365 * 86400);

    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data).toHaveLength(1);
    expect(invoices.data[0]).toMatchObject({ status: 'paid', amount_paid: 12900, currency: 'usd' });
    expect(invoices.data[0]!.id).toMatch(/^in_/);

    const events = await stripe.events.list({ limit: 100 });
    const mine = events.data.filter((event) =>
      JSON.stringify(event.data.object).includes(subscription.id),
    );
    expect(mine.map((event) => event.type).sort()).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ]);
    expect(mine.every((event) => event.id.startsWith('evt_'))).toBe(true);

    const canceling = await stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
    });
    expect(canceling.cancel_at_period_end).toBe(true);
    expect(canceling.cancel_at).toBe(item.current_period_end);
    const resumed = await stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: false,
    });
    expect(resumed.cancel_at).toBeNull();
    const ended = await stripe.subscriptions.cancel(subscription.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).not.toBeNull();
  });

  it('starts a trial with no charge when trial_period_days is set', async () => {
    const stripe = sdk();
    const { session } = await newSession(stripe, 14);
    expect((await pay(session.url!, '4242424242424242')).status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done.payment_status).toBe('no_payment_required');
    const subscription = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(subscription.status).toBe('trialing');
    expect(subscription.trial_end! - subscription.trial_start!).toBe(14 * 86400);
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4242 4242 4242 4241', 'Your card number is incorrect.'],
  ])('keeps the session open and shows Stripe’s message for %s', async (card, message) => {
    const stripe = sdk();
    const { session } = await newSession(stripe);
    const answer = await pay(session.url!, card);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(await answer.text()).toContain(message);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('asks 4000 0025 0000 3155 to authenticate, then completes or refuses', async () => {
    const stripe = sdk();
    const { session } = await newSession(stripe);
    const challenge = await pay(session.url!, '4000002500003155');
    expect(await challenge.text()).toContain('Complete authentication');
    const confirm = (outcome: string) =>
      fetch(`${session.url}/authenticate`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome }),
      });
    expect(await (await confirm('fail')).text()).toContain('unable to authenticate');
    await pay(session.url!, '4000002500003155');
    expect((await confirm('complete')).status).toBe(303);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete');
  });
});

describe('Stripe sandbox: webhook delivery', () => {
  const received: { signature: string; body: string }[] = [];
  let failuresLeft = 2;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ signature: String(req.headers['stripe-signature']), body });
      res.writeHead(failuresLeft-- > 0 ? 500 : 200).end();
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('signs each event as Stripe does and retries a refused delivery until it is taken', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const secret = 'whsec_test_delivery';
    const sandbox = createStripeSandbox({
      publicUrl: 'http://sandbox.invalid',
      webhooks: [{ url: `http://127.0.0.1:${port}/hook`, secret }],
      delivery: { retryDelaysMs: [20, 20, 20] },
    });
    try {
      const customer = sandbox.world.createCustomer({});
      await expect
        .poll(() => sandbox.deliverer.deliveries[0]?.status, { timeout: 5000 })
        .toBe('succeeded');
      expect(sandbox.deliverer.deliveries[0]!.attempts).toBe(3);
      expect(received).toHaveLength(3);
      for (const { signature, body } of received) {
        const event = await Stripe.webhooks.constructEventAsync(body, signature, secret, 300);
        expect(event.type).toBe('customer.created');
        expect((event.data.object as { id: string }).id).toBe(customer.id);
      }
      expect(() =>
        Stripe.webhooks.constructEvent(received[0]!.body, received[0]!.signature, 'whsec_other'),
      ).toThrow();
    } finally {
      await sandbox.stop();
    }
  });
});
