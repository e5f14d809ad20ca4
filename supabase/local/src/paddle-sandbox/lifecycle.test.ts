import { describe, expect, it } from 'vitest';
import { PaddleError } from './errors.ts';
import { PaddleLifecycle } from './lifecycle.ts';
import { PaddleWorld, type PaddleEvent, type Subscription } from './world.ts';

/**
 * The sandbox's subscription lifecycle on a clock the test moves: Paddle's proration arithmetic
 * for an item change, a refused charge that changes nothing, renewals that are paid or fall past
 * due with Paddle's notifications, the transaction that pays a past-due renewal, and discounts.
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

function setUp() {
  let now = START;
  const events: PaddleEvent[] = [];
  const world = new PaddleWorld({
    publicUrl: 'http://sandbox.test',
    now: () => now,
    emit: (event) => events.push(event),
  });
  const lifecycle = new PaddleLifecycle(world, () => 'http://portal.test/paddle/payment');
  const price = (amount: number, interval: 'month' | 'year') => ({
    description: `Plan ${amount}`,
    name: `Plan ${amount}`,
    unit_price: { amount: String(amount), currency_code: 'USD' },
    billing_cycle: { interval, frequency: 1 },
    product: { name: 'Shortlane Pro', tax_category: 'standard' },
  });
  /** A customer subscribed to `amount` a month (or year), paid with the 4242 card. */
  const subscribe = (amount: number, interval: 'month' | 'year' = 'month'): Subscription => {
    const customer = world.createCustomer({ email: `c${events.length}@example.test` });
    const transaction = world.createTransaction(
      { customer_id: customer.id, items: [{ quantity: 1, price: price(amount, interval) }] },
      null,
    );
    world.completeCheckout(
      transaction.id,
      { email: customer.email, countryCode: 'US', postalCode: '10001' },
      { number: '4242424242424242', expMonth: 12, expYear: 2034, cardholderName: 'A' },
    );
    return world.subscription(world.transaction(transaction.id).subscription_id!);
  };
  return {
    world,
    lifecycle,
    events,
    price,
    subscribe,
    advance: (ms: number) => (now += ms),
    typesSince: (from: number) => events.slice(from).map((event) => event.event_type),
  };
}

describe('the Paddle sandbox lifecycle', () => {
  it('prorates an upgrade within the period: the unused old time is credited, the new charged', () => {
    const { lifecycle, subscribe, price, advance, world } = setUp();
    const subscription = subscribe(1000);
    const period = subscription.current_billing_period!;
    const length = Date.parse(period.ends_at) - Date.parse(period.starts_at);
    advance(length / 2);
    const body = {
      items: [{ quantity: 1, price: price(3000, 'month') }],
      proration_billing_mode: 'prorated_immediately',
    };
    const preview = lifecycle.preview(subscription.id, body) as {
      update_summary: { credit: { amount: string }; charge: { amount: string } };
      immediate_transaction: { details: { totals: { grand_total: string } } };
    };
    expect(preview.update_summary.credit.amount).toBe('500');
    expect(preview.update_summary.charge.amount).toBe('1500');
    expect(preview.immediate_transaction.details.totals.grand_total).toBe('1000');
    // The preview changed nothing.
    expect(world.subscription(subscription.id).items[0]!.price.unit_price.amount).toBe('1000');

    const updated = lifecycle.update(subscription.id, body);
    expect(updated.items[0]!.price.unit_price.amount).toBe('3000');
    expect(updated.current_billing_period).toEqual(period);
    const charged = [...world.transactions.values()].find(
      (t) => t.origin === 'subscription_update',
    )!;
    expect(charged.status).toBe('completed');
    expect(charged.details.totals.grand_total).toBe('1000');
    expect(charged.payments[0]!.status).toBe('captured');
  });

  it('a change of billing frequency starts a new period now, charging it in full less the credit', () => {
    const { lifecycle, subscribe, price, advance } = setUp();
    const subscription = subscribe(1200);
    advance(15 * DAY);
    const updated = lifecycle.update(subscription.id, {
      items: [{ quantity: 1, price: price(12000, 'year') }],
      proration_billing_mode: 'prorated_immediately',
    });
    expect(updated.billing_cycle).toEqual({ interval: 'year', frequency: 1 });
    expect(updated.current_billing_period!.starts_at).toBe(
      new Date(START + 15 * DAY).toISOString(),
    );
    expect(updated.current_billing_period!.ends_at).toBe(
      new Date(Date.UTC(2027, 0, 16)).toISOString(),
    );
  });

  it('a declined card, or none, refuses the charge and changes nothing', () => {
    const { lifecycle, subscribe, price, world, events } = setUp();
    const subscription = subscribe(1000);
    world.decliningCustomers.add(subscription.customer_id);
    const before = events.length;
    const change = () =>
      lifecycle.update(subscription.id, {
        items: [{ quantity: 1, price: price(3000, 'month') }],
        proration_billing_mode: 'prorated_immediately',
      });
    expect(change).toThrow(PaddleError);
    try {
      change();
    } catch (error) {
      expect((error as PaddleError).code).toBe('subscription_payment_declined');
    }
    world.savedCards.delete(subscription.customer_id);
    try {
      change();
    } catch (error) {
      expect((error as PaddleError).code).toBe('subscription_missing_payment_method_cannot_update');
    }
    expect(events.length).toBe(before);
    expect(world.subscription(subscription.id).items[0]!.price.unit_price.amount).toBe('1000');
    // Without a charge (do_not_bill) the items change all the same.
    const swapped = lifecycle.update(subscription.id, {
      items: [{ quantity: 1, price: price(500, 'month') }],
      proration_billing_mode: 'do_not_bill',
    });
    expect(swapped.items[0]!.price.unit_price.amount).toBe('500');
  });

  it('renews at the period end: a paid renewal, then a declined one past due, paid in checkout', () => {
    const { lifecycle, subscribe, world, advance, typesSince, events } = setUp();
    const subscription = subscribe(1000);
    advance(40 * DAY);
    let from = events.length;
    lifecycle.renew(subscription.id);
    expect(typesSince(from)).toEqual([
      'subscription.updated',
      'transaction.created',
      'transaction.billed',
      'transaction.paid',
      'transaction.completed',
    ]);
    // The period that ended at its own end date is followed by the next, whenever the clock came.
    expect(world.subscription(subscription.id).current_billing_period!.starts_at).toBe(
      new Date(Date.UTC(2026, 1, 1)).toISOString(),
    );

    from = events.length;
    lifecycle.renew(subscription.id, 'failed');
    expect(typesSince(from)).toEqual([
      'subscription.updated',
      'transaction.created',
      'transaction.billed',
      'transaction.payment_failed',
      'transaction.updated',
      'transaction.past_due',
      'subscription.updated',
      'subscription.past_due',
    ]);
    expect(world.subscription(subscription.id).status).toBe('past_due');
    expect(() => lifecycle.renew(subscription.id)).toThrow(PaddleError);

    const due = lifecycle.paymentMethodTransaction(subscription.id);
    expect(due.status).toBe('past_due');
    expect(due.checkout.url).toBe(`http://portal.test/paddle/payment?_ptxn=${due.id}`);
    from = events.length;
    world.completeCheckout(
      due.id,
      { email: 'x@example.test', countryCode: 'US', postalCode: '10001' },
      { number: '4242424242424242', expMonth: 12, expYear: 2034, cardholderName: 'A' },
    );
    expect(typesSince(from)).toEqual([
      'transaction.paid',
      'subscription.updated',
      'transaction.completed',
    ]);
    expect(world.subscription(subscription.id).status).toBe('active');
    // An active subscription's payment-method update is a new zero-value transaction.
    const update = lifecycle.paymentMethodTransaction(subscription.id);
    expect(update.origin).toBe('subscription_payment_method_change');
    expect(update.details.totals.grand_total).toBe('0');
  });

  it('a scheduled cancel takes effect at the renewal instead of billing', () => {
    const { lifecycle, subscribe, world } = setUp();
    const subscription = subscribe(1000);
    world.cancelSubscription(subscription.id, { effective_from: 'next_billing_period' });
    const renewed = lifecycle.renew(subscription.id);
    expect(renewed.status).toBe('canceled');
    expect(
      [...world.transactions.values()].filter((t) => t.origin === 'subscription_recurring'),
    ).toHaveLength(0);
  });

  it('takes a discount off a checkout: a percentage or a flat amount, found by its code', () => {
    const { world, price } = setUp();
    const percent = world.createDiscount({
      type: 'percentage',
      amount: '25',
      description: 'Quarter off',
      code: 'QUARTER',
      enabled_for_checkout: true,
    });
    const flat = world.createDiscount({
      type: 'flat',
      amount: '300',
      currency_code: 'USD',
      description: 'Three off',
    });
    expect(() =>
      world.createDiscount({ type: 'percentage', amount: '5', description: 'x', code: 'QUARTER' }),
    ).toThrow(PaddleError);
    const items = [{ quantity: 1, price: price(1000, 'month') }];
    expect(
      world.createTransaction({ items, discount_id: percent.id }, null).details.totals,
    ).toMatchObject({ subtotal: '1000', discount: '250', total: '750', grand_total: '750' });
    expect(
      world.createTransaction({ items, discount_id: flat.id }, null).details.totals,
    ).toMatchObject({ discount: '300', total: '700' });
  });
});
