import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { createStripeSandbox, SANDBOX_STRIPE_SECRET_KEY, type StripeSandbox } from './index.ts';

/**
 * One-time line items beside the recurring one (a domain bought for several years): Checkout
 * charges them on the first invoice only; the renewals charge the recurring price.
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

const recurring = {
  quantity: 1,
  price_data: {
    currency: 'usd',
    unit_amount: 1299,
    recurring: { interval: 'year' as const },
    product_data: { name: 'Domains: brand.com' },
  },
};

describe('checkout with one-time items', () => {
  it('adds them to the session total and the first invoice, not to the renewal', async () => {
    const stripe = sdk();
    const customer = await stripe.customers.create({ email: 'pat@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        recurring,
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: 2598,
            product_data: { name: 'brand.com: 2 more years' },
          },
        },
      ],
      success_url: 'http://app.test/success',
    });
    expect(session.amount_total).toBe(1299 + 2598);
    const done = sandbox.world.completeCheckout(session.id, null);
    const first = await stripe.invoices.retrieve(done.invoice as string);
    expect(first.amount_paid).toBe(3897);
    const renewed = sandbox.world.renewSubscription(done.subscription as string, 'paid');
    const second = await stripe.invoices.retrieve(renewed.latest_invoice as string);
    expect(second.amount_paid).toBe(1299);
  });

  it('refuses a second recurring item, as this sandbox bills one price per subscription', async () => {
    const stripe = sdk();
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [recurring, recurring],
        success_url: 'http://app.test/success',
      }),
    ).rejects.toThrow(/one recurring line item/);
  });
});
