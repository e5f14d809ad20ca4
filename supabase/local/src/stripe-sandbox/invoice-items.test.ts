import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { createStripeSandbox, SANDBOX_STRIPE_SECRET_KEY, type StripeSandbox } from './index.ts';

/**
 * Invoice items through the official SDK, in process: pending on the subscription until its
 * next invoice, where each is a line of its own; one item per idempotency key.
 */
let sandbox: StripeSandbox;

function sdk(): Stripe {
  sandbox = createStripeSandbox({ publicUrl: 'http://sandbox.test' });
  return new Stripe(SANDBOX_STRIPE_SECRET_KEY, {
    host: 'sandbox.test',
    port: 80,
    protocol: 'http',
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((input, init) =>
      sandbox.handler(new Request(String(input), init as RequestInit)),
    ),
  });
}

afterEach(async () => {
  await sandbox?.stop();
});

async function subscribed(stripe: Stripe) {
  const customer = await stripe.customers.create({ email: 'pat@example.com' });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 3000,
          recurring: { interval: 'month' },
          product_data: { name: 'Pro' },
        },
      },
    ],
    success_url: 'http://app.test/success?session_id={CHECKOUT_SESSION_ID}',
  });
  const done = sandbox.world.completeCheckout(session.id, null);
  return { customer, subscription: await stripe.subscriptions.retrieve(done.subscription!) };
}

describe('Stripe sandbox: invoice items', () => {
  it('puts an item on the next invoice as its own line, once per idempotency key', async () => {
    const stripe = sdk();
    const { customer, subscription } = await subscribed(stripe);
    const params = {
      customer: customer.id,
      subscription: subscription.id,
      amount: 1234,
      currency: 'usd',
      description: 'Overage: 617 units over the plan limits',
      period: { start: 1_790_000_000, end: 1_792_000_000 },
      metadata: { overage_charge_id: 'c1' },
    };
    const item = await stripe.invoiceItems.create(params, { idempotencyKey: 'overage-c1' });
    expect(item).toMatchObject({ object: 'invoiceitem', amount: 1234, invoice: null });
    const again = await stripe.invoiceItems.create(params, { idempotencyKey: 'overage-c1' });
    expect(again.id).toBe(item.id);
    await expect(
      stripe.invoiceItems.create({ ...params, amount: 1 }, { idempotencyKey: 'overage-c1' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });

    sandbox.world.renewSubscription(subscription.id, 'paid');
    const [invoice] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 }))
      .data;
    expect(invoice?.lines.data.map((line) => [line.description, line.amount])).toEqual([
      ['Overage: 617 units over the plan limits', 1234],
      [expect.stringMatching(/^1 × /), 3000],
    ]);
    expect(invoice?.amount_paid).toBe(4234);
    expect((await stripe.invoiceItems.retrieve(item.id)).invoice).toBe(invoice?.id);
    // The invoice after that one carries it no more.
    sandbox.world.renewSubscription(subscription.id, 'paid');
    const [next] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data;
    expect(next?.lines.data).toHaveLength(1);
  });

  it('refuses an item without a customer or a subscription of that customer', async () => {
    const stripe = sdk();
    const { subscription } = await subscribed(stripe);
    const other = await stripe.customers.create({ email: 'sam@example.com' });
    await expect(
      stripe.invoiceItems.create({ customer: other.id, subscription: subscription.id, amount: 5 }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'subscription' });
    await expect(
      stripe.invoiceItems.create({ customer: 'cus_missing', amount: 5, currency: 'usd' }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});
