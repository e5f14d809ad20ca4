import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { createStripeSandbox, SANDBOX_STRIPE_SECRET_KEY, type StripeSandbox } from './index.ts';

/**
 * The sandbox's subscription lifecycle driven by the official SDK, in process (its fetch calls
 * the sandbox's handler): prorations as Stripe computes them, schedules, coupons.
 */
const DAY = 86_400;
let clock = Date.UTC(2026, 0, 1) / 1000;
let sandbox: StripeSandbox;

function sdk(): Stripe {
  sandbox = createStripeSandbox({ publicUrl: 'http://sandbox.test', now: () => clock });
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

async function subscribed(
  stripe: Stripe,
  amount: number,
  interval: 'month' | 'year',
  coupon?: string,
) {
  const customer = await stripe.customers.create({ email: 'pat@example.com' });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: amount,
          recurring: { interval },
          product_data: { name: 'Pro' },
        },
      },
    ],
    success_url: 'http://app.test/success?session_id={CHECKOUT_SESSION_ID}',
    ...(coupon ? { discounts: [{ coupon }] } : {}),
  });
  const done = sandbox.world.completeCheckout(session.id, null);
  return {
    customer,
    session: done,
    subscription: await stripe.subscriptions.retrieve(done.subscription!),
  };
}

describe('Stripe sandbox: subscription changes', () => {
  it('prorates a mid-period upgrade to the second and invoices it at once', async () => {
    const stripe = sdk();
    const { subscription } = await subscribed(stripe, 3000, 'month');
    const item = subscription.items.data[0]!;
    const period = item.current_period_end - item.current_period_start;
    clock += 10 * DAY;
    const business = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 6000,
      recurring: { interval: 'month' },
      product_data: { name: 'Business' },
    });
    const preview = await stripe.invoices.createPreview({
      subscription: subscription.id,
      subscription_details: {
        items: [{ id: item.id, price: business.id }],
        proration_behavior: 'always_invoice',
      },
    });
    const unused = (item.current_period_end - clock) / period;
    const expected = Math.round(6000 * unused) - Math.round(3000 * unused);
    expect(preview.amount_due).toBe(expected);
    expect(preview.lines.data.map((line) => line.amount)).toEqual([
      -Math.round(3000 * unused),
      Math.round(6000 * unused),
    ]);

    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: business.id }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(updated.items.data[0]!.price.id).toBe(business.id);
    // Same interval: the billing cycle stays.
    expect(updated.items.data[0]!.current_period_end).toBe(item.current_period_end);
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string);
    expect(invoice.amount_paid).toBe(expected);
    expect(invoice.billing_reason).toBe('subscription_update');
  });

  it('resets the cycle on a monthly to yearly switch and credits the unused month', async () => {
    const stripe = sdk();
    const { subscription } = await subscribed(stripe, 1000, 'month');
    const item = subscription.items.data[0]!;
    const period = item.current_period_end - item.current_period_start;
    clock += 15 * DAY;
    const yearly = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 10000,
      recurring: { interval: 'year' },
      product_data: { name: 'Pro' },
    });
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: yearly.id }],
      proration_behavior: 'create_prorations',
    });
    const next = updated.items.data[0]!;
    expect(next.current_period_start).toBe(clock);
    expect(next.current_period_end - next.current_period_start).toBe(365 * DAY);
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string);
    const credit = Math.round((1000 * (item.current_period_end - clock)) / period);
    expect(invoice.amount_paid).toBe(10000 - credit);
  });

  it('refuses a change whose payment declines with error_if_incomplete, and changes nothing', async () => {
    const stripe = sdk();
    const { customer, subscription } = await subscribed(stripe, 1000, 'month');
    sandbox.lifecycle.decliningCustomers.add(customer.id);
    clock += DAY;
    const bigger = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 5000,
      recurring: { interval: 'month' },
      product_data: { name: 'Business' },
    });
    const attempt = stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]!.id, price: bigger.id }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    await expect(attempt).rejects.toMatchObject({ statusCode: 402, code: 'card_declined' });
    const after = await stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data[0]!.price.unit_amount).toBe(1000);
  });
});

describe('Stripe sandbox: schedules', () => {
  it('schedules a downgrade at the period end, which the renewal applies; release undoes it', async () => {
    const stripe = sdk();
    const { subscription } = await subscribed(stripe, 6000, 'month');
    const item = subscription.items.data[0]!;
    const schedule = await stripe.subscriptionSchedules.create({
      from_subscription: subscription.id,
    });
    expect(schedule.phases).toHaveLength(1);
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
    const cheaper = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 3000,
      recurring: { interval: 'month' },
      product_data: { name: 'Pro' },
    });
    const phased = await stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: 'release',
      phases: [
        {
          start_date: schedule.phases[0]!.start_date,
          end_date: schedule.phases[0]!.end_date,
          items: [{ price: item.price.id, quantity: 1 }],
        },
        { items: [{ price: cheaper.id, quantity: 1 }], metadata: { plan: 'pro' } },
      ],
    });
    expect(phased.phases[1]!.start_date).toBe(item.current_period_end);

    // A second schedule on the same subscription is refused.
    await expect(
      stripe.subscriptionSchedules.create({ from_subscription: subscription.id }),
    ).rejects.toMatchObject({ statusCode: 400 });

    clock = item.current_period_end;
    sandbox.world.renewSubscription(subscription.id, 'paid');
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.items.data[0]!.price.id).toBe(cheaper.id);
    expect(renewed.metadata.plan).toBe('pro');
    const invoice = await stripe.invoices.retrieve(renewed.latest_invoice as string);
    expect(invoice.amount_paid).toBe(3000);
    const after = await stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(after.current_phase?.start_date).toBe(item.current_period_end);

    const released = await stripe.subscriptionSchedules.release(schedule.id);
    expect(released.status).toBe('released');
    expect(released.released_subscription).toBe(subscription.id);
    expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull();
    await expect(stripe.subscriptionSchedules.release(schedule.id)).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe('Stripe sandbox: coupons', () => {
  it('takes a coupon off the first invoice and refuses an unknown one', async () => {
    const stripe = sdk();
    await stripe.coupons.create({ id: 'SAVE30', percent_off: 30, duration: 'once' });
    const { session, subscription } = await subscribed(stripe, 10000, 'year', 'SAVE30');
    expect(session.amount_total).toBe(7000);
    expect(session.total_details?.amount_discount).toBe(3000);
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(invoice.amount_paid).toBe(7000);
    expect((await stripe.coupons.retrieve('SAVE30')).times_redeemed).toBe(1);
    await expect(subscribed(stripe, 10000, 'year', 'NOPE')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    const promotion = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: 'SAVE30' },
      code: 'SPRING',
    });
    const found = await stripe.promotionCodes.list({ code: 'SPRING', active: true });
    expect(found.data.map((entry) => entry.id)).toEqual([promotion.id]);
  });
});
