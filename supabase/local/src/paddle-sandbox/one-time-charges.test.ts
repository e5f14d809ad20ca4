import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Paddle, type ApiError, type Environment } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebRequest } from '../http.ts';
import { createPaddleSandbox, SANDBOX_PADDLE_API_KEY, type PaddleSandbox } from './index.ts';

/** One-time charges on a subscription through the official SDK over HTTP (the metered overage). */
let sandbox: PaddleSandbox;
let server: http.Server;
let paddle: Paddle;

beforeAll(async () => {
  const holder = { origin: '' };
  server = http.createServer((req, res) => {
    void serveWebRequest(req, res, holder.origin, (request) => sandbox.handler(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  holder.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox = createPaddleSandbox({ publicUrl: holder.origin });
  paddle = new Paddle(SANDBOX_PADDLE_API_KEY, { environment: holder.origin as Environment });
});

afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => server.close(resolve));
});

async function activeSubscription(): Promise<string> {
  const email = `otc-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const customer = await paddle.customers.create({ email });
  const transaction = await paddle.transactions.create({
    customerId: customer.id,
    items: [
      {
        quantity: 1,
        price: {
          description: 'Pro (monthly)',
          name: 'Pro',
          unitPrice: { amount: '1900', currencyCode: 'USD' },
          billingCycle: { interval: 'month', frequency: 1 },
          product: { name: 'Shortlane Pro', taxCategory: 'standard' },
        },
      },
    ],
  });
  const done = sandbox.world.completeCheckout(
    transaction.id,
    { email, countryCode: 'US', postalCode: '10001' },
    { number: '4242424242424242', expMonth: 12, expYear: 2040, cardholderName: 'Pat' },
  );
  return String(done.subscription_id);
}

describe('Paddle sandbox: one-time charges', () => {
  it('records a non-catalog charge for the next billing period and answers the subscription', async () => {
    const id = await activeSubscription();
    const answered = await paddle.subscriptions.createOneTimeCharge(id, {
      effectiveFrom: 'next_billing_period',
      items: [
        {
          quantity: 1,
          price: {
            description: 'Overage: 150 units over the plan limits',
            name: 'Overage',
            unitPrice: { amount: '300', currencyCode: 'USD' },
            customData: { overage_charge_id: 'c1' },
            product: { name: 'Overage', taxCategory: 'standard' },
          },
        },
      ],
    });
    expect(answered.id).toBe(id);
    expect(sandbox.oneTimeCharges.charges.get(id)).toMatchObject([
      {
        effective_from: 'next_billing_period',
        items: [
          {
            quantity: 1,
            price: {
              description: 'Overage: 150 units over the plan limits',
              unit_price: { amount: '300', currency_code: 'USD' },
              custom_data: { overage_charge_id: 'c1' },
            },
          },
        ],
      },
    ]);
    // Not on the subscription entity: in its next transaction, whose line names a price entity
    // that carries the custom data (how a caller without an idempotency key finds its charge).
    const withNext = await paddle.subscriptions.get(id, { include: ['next_transaction'] });
    const lines = withNext.nextTransaction!.details.lineItems;
    expect(lines).toHaveLength(2);
    const prices = await Promise.all(lines.map((line) => paddle.prices.get(line.priceId)));
    expect(prices.map((price) => price.customData)).toContainEqual({ overage_charge_id: 'c1' });
    expect(lines.map((line) => line.totals?.total)).toContain('300');
    expect((await paddle.subscriptions.get(id)).nextTransaction).toBeNull();
  });

  it('refuses another currency than the subscription’s and an unknown subscription', async () => {
    const id = await activeSubscription();
    const charge = (currencyCode: 'USD' | 'EUR') => ({
      effectiveFrom: 'next_billing_period' as const,
      items: [
        {
          quantity: 1,
          price: {
            description: 'Overage',
            unitPrice: { amount: '300', currencyCode },
            product: { name: 'Overage', taxCategory: 'standard' as const },
          },
        },
      ],
    });
    const wrong = await paddle.subscriptions
      .createOneTimeCharge(id, charge('EUR'))
      .catch((e: unknown) => e);
    expect((wrong as ApiError).errors?.[0]?.field).toBe('items[0].price.unit_price.currency_code');
    const missing = await paddle.subscriptions
      .createOneTimeCharge('sub_01aaaaaaaaaaaaaaaaaaaaaaaa', charge('USD'))
      .catch((e: unknown) => e);
    expect((missing as ApiError).code).toBe('not_found');
  });
});
