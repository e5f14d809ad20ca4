import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Paddle, type Environment, type Subscription } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebRequest } from '../http.ts';
import { PADDLE_ID } from './ids.ts';
import {
  createPaddleSandbox,
  SANDBOX_PADDLE_API_KEY,
  SANDBOX_PADDLE_CLIENT_TOKEN,
  type PaddleSandbox,
} from './index.ts';
import { paddleSignatureHeader } from './webhooks.ts';
import type { PaddleEvent } from './world.ts';

/**
 * The sandbox driven by the official Node SDK over HTTP (so every shape it answers is one the
 * SDK can read), its checkout frame driven like a browser form, and its webhooks received by a
 * local endpoint that answers 500 once: signed as Paddle signs, retried, then acknowledged.
 */

let sandbox: PaddleSandbox;
let server: http.Server;
let receiver: http.Server;
let base: string;
let paddle: Paddle;
const received: { signature: string; body: string }[] = [];
let refuseNext = 1;
const SECRET = 'pdl_ntfset_test_secret';

async function listen(handler: http.RequestListener): Promise<[http.Server, string]> {
  const listening = http.createServer(handler);
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return [listening, `http://127.0.0.1:${(listening.address() as AddressInfo).port}`];
}

beforeAll(async () => {
  let receiverUrl: string;
  [receiver, receiverUrl] = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ signature: String(req.headers['paddle-signature']), body });
      res.statusCode = refuseNext-- > 0 ? 500 : 200;
      res.end();
    });
  });
  const portHolder = { origin: '' };
  [server, base] = await listen((req, res) => {
    void serveWebRequest(req, res, portHolder.origin, async (request) => {
      const url = new URL(request.url);
      url.pathname = url.pathname.replace(/^\/sandbox\/paddle/, '');
      return sandbox.handler(new Request(url, request));
    });
  });
  portHolder.origin = base;
  sandbox = createPaddleSandbox({
    publicUrl: `${base}/sandbox/paddle`,
    webhooks: [{ url: `${receiverUrl}/paddle-webhook`, secret: SECRET }],
    delivery: { retryDelaysMs: [20, 20] },
  });
  // The SDK takes a base URL where it takes an environment name (it maps only the two names).
  paddle = new Paddle(SANDBOX_PADDLE_API_KEY, {
    environment: `${base}/sandbox/paddle` as Environment,
  });
});

afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => receiver.close(resolve));
});

async function frame(path: string, form?: Record<string, string>) {
  const context = {
    token: SANDBOX_PADDLE_CLIENT_TOKEN,
    parent_origin: 'http://localhost:5173',
    locale: 'en',
  };
  const response = form
    ? await fetch(`${base}/sandbox/paddle/checkout/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...context, ...form }),
      })
    : await fetch(`${base}/sandbox/paddle/checkout/${path}&${new URLSearchParams(context)}`);
  return { status: response.status, html: await response.text() };
}

const card = (number: string) => ({
  email: 'buyer@example.test',
  country: 'US',
  postcode: '10001',
  cardNumber: number,
  cardholder: 'Test Buyer',
  expiry: '12/34',
  cvc: '123',
});

async function proTransaction(trialDays = 0) {
  const customer = await paddle.customers.create({
    email: `c-${crypto.randomUUID().slice(0, 8)}@example.test`,
    customData: { account_id: 'acc-1' },
  });
  const transaction = await paddle.transactions.create({
    customerId: customer.id,
    customData: { account_id: 'acc-1', plan_price_id: 'price-1' },
    checkout: { url: 'http://localhost:5173/paddle/payment' },
    items: [
      {
        quantity: 1,
        price: {
          description: 'Pro (yearly)',
          name: 'Pro',
          unitPrice: { amount: '12900', currencyCode: 'USD' },
          billingCycle: { interval: 'year', frequency: 1 },
          trialPeriod: trialDays > 0 ? { interval: 'day', frequency: trialDays } : null,
          product: { name: 'Shortlane Pro', taxCategory: 'standard' },
        },
      },
    ],
  });
  return { customer, transaction };
}

describe('the Paddle sandbox, through the official SDK', () => {
  it('creates customers and transactions with Paddle ids, envelopes and payment links', async () => {
    const { customer, transaction } = await proTransaction();
    expect(customer.id).toMatch(PADDLE_ID);
    expect(customer.id.startsWith('ctm_')).toBe(true);
    const token = await paddle.customers.generateAuthToken(customer.id);
    expect(token.customerAuthToken).toMatch(/^pca_/);
    expect(transaction.id.startsWith('txn_')).toBe(true);
    expect(transaction.status).toBe('draft');
    expect(transaction.items[0]!.price!.id.startsWith('pri_')).toBe(true);
    expect(transaction.details!.totals!.total).toBe('12900');
    expect(transaction.checkout!.url).toBe(
      `http://localhost:5173/paddle/payment?_ptxn=${transaction.id}`,
    );
    const raw = await fetch(`${base}/sandbox/paddle/transactions/${transaction.id}`, {
      headers: { authorization: `Bearer ${SANDBOX_PADDLE_API_KEY}` },
    });
    const body = (await raw.json()) as { data: { id: string }; meta: { request_id: string } };
    expect(body.data.id).toBe(transaction.id);
    expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers Paddle's error bodies, which the SDK raises as ApiError", async () => {
    const missing = await paddle.subscriptions
      .get('sub_01aaaaaaaaaaaaaaaaaaaaaaaa')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).code).toBe('not_found');
    expect((missing as ApiError).type).toBe('request_error');
    expect((missing as ApiError).documentationUrl).toBe(
      'https://developer.paddle.com/v1/errors/shared/not_found',
    );
    const invalid = await paddle.customers
      .create({ email: 'not-an-email' })
      .catch((e: unknown) => e);
    expect((invalid as ApiError).code).toBe('bad_request');
    expect((invalid as ApiError).errors).toEqual([
      { field: 'email', message: 'must be a valid email address' },
    ]);
    const anonymous = await fetch(`${base}/sandbox/paddle/customers/ctm_x`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe(
      'authentication_missing',
    );
  });

  it('takes 4242… in the checkout frame: the transaction completes and a subscription starts', async () => {
    const { transaction } = await proTransaction();
    const opened = await frame(`frame?_ptxn=${transaction.id}`);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain('checkout.loaded');
    const paid = await frame(`${transaction.id}/pay`, card('4242 4242 4242 4242'));
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('checkout.completed');
    const done = await paddle.transactions.get(transaction.id);
    expect(done.status).toBe('completed');
    expect(done.payments[0]!.status).toBe('captured');
    const subscription: Subscription = await paddle.subscriptions.get(done.subscriptionId!);
    expect(subscription.status).toBe('active');
    expect(subscription.customData).toEqual({ account_id: 'acc-1', plan_price_id: 'price-1' });
    expect(subscription.billingCycle).toEqual({ interval: 'year', frequency: 1 });
    const types = sandbox.world.events
      .filter(
        (event) =>
          JSON.stringify(event.data).includes(transaction.id) || event.data.id === subscription.id,
      )
      .map((event) => event.event_type);
    expect(types).toEqual([
      'transaction.created',
      'transaction.paid',
      'subscription.created',
      'subscription.activated',
      'transaction.completed',
    ]);
  });

  it('links a billed transaction to its invoice PDF; the link is signed and an unbilled one has none', async () => {
    const { transaction } = await proTransaction();
    await expect(paddle.transactions.getInvoicePDF(transaction.id)).rejects.toBeInstanceOf(
      ApiError,
    );
    await frame(`${transaction.id}/pay`, card('4242 4242 4242 4242'));
    const { url } = await paddle.transactions.getInvoicePDF(transaction.id);
    const pdf = await fetch(url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const forged = new URL(url);
    forged.searchParams.set('signature', '0'.repeat(64));
    expect((await fetch(forged)).status).toBe(403);
  });

  it('changes a subscription through the SDK: previews and applies an upgrade, renews it', async () => {
    const { transaction } = await proTransaction();
    await frame(`${transaction.id}/pay`, card('4242 4242 4242 4242'));
    const done = await paddle.transactions.get(transaction.id);
    const price = {
      description: 'Shortlane Business',
      name: 'Shortlane Business (yearly)',
      unitPrice: { amount: '29900', currencyCode: 'USD' as const },
      billingCycle: { interval: 'year' as const, frequency: 1 },
      product: { name: 'Shortlane Business', taxCategory: 'standard' as const },
    };
    const body = {
      items: [{ quantity: 1, price }],
      prorationBillingMode: 'prorated_immediately' as const,
    };
    const preview = await paddle.subscriptions.previewUpdate(done.subscriptionId!, body);
    expect(preview.updateSummary!.result.action).toBe('charge');
    expect(Number(preview.immediateTransaction!.details.totals.grandTotal)).toBeGreaterThan(0);
    const updated = await paddle.subscriptions.update(done.subscriptionId!, body);
    expect(updated.items[0]!.price!.unitPrice.amount).toBe('29900');
    const renew = await fetch(
      `${base}/sandbox/paddle/_sandbox/subscriptions/${done.subscriptionId}/renew`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_PADDLE_API_KEY}` },
        body: JSON.stringify({ outcome: 'failed' }),
      },
    );
    expect(renew.status).toBe(200);
    const due = await paddle.subscriptions.getPaymentMethodChangeTransaction(done.subscriptionId!);
    expect(due.status).toBe('past_due');
    expect(due.details!.totals!.grandTotal).toBe('29900');
  });

  it('refuses the declined and insufficient-funds cards, and asks 3-D Secure cards to authenticate', async () => {
    const { transaction } = await proTransaction();
    const declined = await frame(`${transaction.id}/pay`, card('4000 0000 0000 0002'));
    expect(declined.status).toBe(402);
    expect(declined.html).toContain('checkout.payment.failed');
    expect(declined.html).toContain('role="alert"');
    const poor = await frame(`${transaction.id}/pay`, card('4000 0000 0000 9995'));
    expect(poor.html).toContain('insufficient funds');
    expect((await paddle.transactions.get(transaction.id)).status).toBe('ready');

    const challenged = await frame(`${transaction.id}/pay`, card('4000 0038 0000 0446'));
    expect(challenged.html).toContain('Authenticate your payment');
    const failed = await frame(`${transaction.id}/authenticate`, { outcome: 'fail' });
    expect(failed.status).toBe(402);
    await frame(`${transaction.id}/pay`, card('4000 0038 0000 0446'));
    const passed = await frame(`${transaction.id}/authenticate`, { outcome: 'complete' });
    expect(passed.html).toContain('checkout.completed');
    expect((await paddle.transactions.get(transaction.id)).status).toBe('completed');
  });

  it('refuses a checkout frame opened with another client-side token', async () => {
    const { transaction } = await proTransaction();
    const response = await fetch(
      `${base}/sandbox/paddle/checkout/frame?_ptxn=${transaction.id}&token=test_wrong&parent_origin=http://localhost:5173`,
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('checkout.error');
  });

  it('starts a trial, cancels at the period end, keeps it, then cancels at once', async () => {
    const { transaction } = await proTransaction(7);
    expect(transaction.details!.totals!.total).toBe('0');
    await frame(`${transaction.id}/pay`, card('4242424242424242'));
    const id = (await paddle.transactions.get(transaction.id)).subscriptionId!;
    const trialing = await paddle.subscriptions.get(id);
    expect(trialing.status).toBe('trialing');
    expect(trialing.items[0]!.trialDates).not.toBeNull();

    const scheduled = await paddle.subscriptions.cancel(id, {
      effectiveFrom: 'next_billing_period',
    });
    expect(scheduled.scheduledChange).toMatchObject({ action: 'cancel' });
    expect(scheduled.status).toBe('trialing');
    expect(scheduled.updatedAt > trialing.updatedAt).toBe(true);
    const kept = await paddle.subscriptions.update(id, { scheduledChange: null });
    expect(kept.scheduledChange).toBeNull();
    const ended = await paddle.subscriptions.cancel(id, { effectiveFrom: 'immediately' });
    expect(ended.status).toBe('canceled');
    expect(ended.canceledAt).not.toBeNull();
    const again = await paddle.subscriptions
      .cancel(id, { effectiveFrom: 'immediately' })
      .catch((e: unknown) => e);
    expect((again as ApiError).code).toBe('subscription_update_when_canceled');
  });

  it('signs each notification as Paddle does and retries a refused delivery', async () => {
    await proTransaction();
    const first = received[0]!;
    const attemptsOfFirst = () => received.filter((delivery) => delivery.body === first.body);
    const deadline = Date.now() + 5_000;
    while (attemptsOfFirst().length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    // Refused once (500), delivered again with the same body and a fresh signature.
    expect(attemptsOfFirst()).toHaveLength(2);
    for (const delivery of received) {
      const ts = Number(/^ts=(\d+);h1=[0-9a-f]{64}$/.exec(delivery.signature)?.[1]);
      expect(delivery.signature).toBe(paddleSignatureHeader(delivery.body, SECRET, ts));
      expect(createHmac('sha256', SECRET).update(`${ts}:${delivery.body}`).digest('hex')).toBe(
        delivery.signature.split('h1=')[1],
      );
    }
    const event = JSON.parse(first.body) as PaddleEvent;
    expect(event.event_id).toMatch(/^evt_/);
    expect(event.notification_id).toMatch(/^ntf_/);
    expect(event.event_type).toBe('customer.created');
    const delivery = sandbox.world.events.find((e) => e.event_id === event.event_id);
    expect(delivery).toBeDefined();
  });

  it('serves a Paddle.js stand-in that @paddle/paddle-js picks up as PaddleBillingV1', async () => {
    const response = await fetch(`${base}/sandbox/paddle/paddle.js`);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    const script = await response.text();
    expect(script).toContain('window.PaddleBillingV1 = Paddle');
    expect(script).toContain("get('_ptxn')");
  });
});
