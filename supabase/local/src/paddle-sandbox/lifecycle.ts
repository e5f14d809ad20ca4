import { PaddleError, invalidField } from './errors.ts';
import {
  addPeriod,
  type PaddleWorld,
  type Proration,
  type Subscription,
  type TimePeriod,
  type Transaction,
} from './world.ts';

/**
 * What a Paddle subscription does after checkout, as Paddle Billing does it:
 *
 * - item changes (`PATCH /subscriptions/{id}` with `items` and `proration_billing_mode`) and
 *   their preview (`PATCH /subscriptions/{id}/preview`): prorated to the second, the unused
 *   part of the period on the old items credited against the new ones; a change of billing
 *   frequency starts a new period now; a charge is collected at once from the card on file and
 *   a refused one changes nothing (`on_payment_failure: prevent_change`, Paddle's default);
 * - renewals at the period end (a sandbox control stands in for the clock): a billed
 *   `subscription_recurring` transaction charged to the card on file; a refused charge makes
 *   the transaction and the subscription past due, with Paddle's notifications;
 * - the transaction that updates a payment method (`GET /subscriptions/{id}/
 *   update-payment-method-transaction`): the last past-due one, else a new zero-value one.
 */

type Json = Record<string, unknown>;
export type ProrationBillingMode = 'prorated_immediately' | 'full_immediately' | 'do_not_bill';
const MODES: readonly string[] = ['prorated_immediately', 'full_immediately', 'do_not_bill'];
const LATER_MODES = ['prorated_next_billing_period', 'full_next_billing_period'];

const subscriptionError = (status: number, code: string, detail: string) =>
  new PaddleError(status, code, detail, undefined, 'request_error', 'subscriptions');

const sameCycle = (a: TimePeriod | null, b: TimePeriod | null) =>
  a?.interval === b?.interval && a?.frequency === b?.frequency;

const money = (amount: number, currency: string) => ({
  amount: String(amount),
  currency_code: currency,
});

/** An item change worked out, before anything is applied. */
interface ItemChange {
  items: Transaction['items'];
  cycle: TimePeriod;
  /** The billing period after the change. */
  period: { starts_at: string; ends_at: string };
  /** Charged now for the new items (minor units), and credited for the unused old ones. */
  charge: number;
  credit: number;
  /** Lines of the immediate transaction, when something is billed now. */
  immediate: { items: Transaction['items']; amounts: number[] } | null;
}

export class PaddleLifecycle {
  constructor(
    private readonly world: PaddleWorld,
    private readonly defaultPaymentLink: () => string | null,
    /** Whether a refund on one of the subscription's transactions awaits Paddle's review. */
    private readonly hasPendingRefund: (subscriptionId: string) => boolean = () => false,
  ) {}

  private changeOf(subscription: Subscription, body: Json): ItemChange {
    const mode = body.proration_billing_mode;
    if (typeof mode !== 'string')
      throw subscriptionError(
        400,
        'subscription_items_update_missing_proration_billing_mode',
        'proration_billing_mode is required when updating subscription items',
      );
    if (LATER_MODES.includes(mode))
      throw invalidField('proration_billing_mode', 'is not supported by this sandbox');
    if (!MODES.includes(mode))
      throw invalidField(
        'proration_billing_mode',
        `must be one of ${[...MODES, ...LATER_MODES].join(', ')}`,
      );
    const onFailure = body.on_payment_failure ?? 'prevent_change';
    if (onFailure !== 'prevent_change')
      throw invalidField('on_payment_failure', 'only prevent_change is supported by this sandbox');
    if (subscription.status === 'past_due')
      throw subscriptionError(
        409,
        'subscription_outstanding_transaction',
        'cannot update subscription due to an outstanding transaction',
      );
    const items = this.world.itemsOf(body.items);
    const currency = subscription.currency_code;
    if (items.some((item) => item.price.unit_price.currency_code !== currency))
      throw invalidField('items', 'every price must be in the subscription currency');
    const cycle = items[0]!.price.billing_cycle;
    if (!cycle || items.some((item) => !sameCycle(item.price.billing_cycle, cycle)))
      throw invalidField('items', 'every item must be recurring with the same billing cycle');
    const current = subscription.current_billing_period!;
    const now = this.world.nowMs();
    const start = Date.parse(current.starts_at);
    const end = Date.parse(current.ends_at);
    // The unused part of the period, to the second as Paddle prorates.
    const rate = Math.max(0, Math.min(1, (end - now) / Math.max(1, end - start)));
    const oldAmount = subscription.items.reduce(
      (sum, item) => sum + Number(item.price.unit_price.amount) * item.quantity,
      0,
    );
    const newAmounts = items.map((item) => Number(item.price.unit_price.amount) * item.quantity);
    const restarts = !sameCycle(subscription.billing_cycle, cycle);
    const nowIso = new Date(now).toISOString();
    const period = restarts
      ? { starts_at: nowIso, ends_at: addPeriod(new Date(now), cycle).toISOString() }
      : { ...current };
    // A trial is free: its items change and the first charge comes when it ends.
    if (subscription.status === 'trialing' || mode === 'do_not_bill')
      return { items, cycle, period, charge: 0, credit: 0, immediate: null };
    const prorated = mode === 'prorated_immediately';
    const credit = prorated ? Math.round(oldAmount * rate) : 0;
    const chargeRate = prorated && !restarts ? rate : 1;
    const amounts = newAmounts.map((amount) => Math.round(amount * chargeRate));
    const proration: Proration = {
      rate: chargeRate.toFixed(5),
      billing_period: { starts_at: restarts ? period.starts_at : nowIso, ends_at: period.ends_at },
    };
    return {
      items,
      cycle,
      period,
      charge: amounts.reduce((sum, amount) => sum + amount, 0),
      credit,
      immediate: {
        items: items.map((item) => ({ ...item, proration: prorated ? proration : null })),
        amounts,
      },
    };
  }

  /** The transaction details of a change billed now: the credit taken off the charge. */
  private immediateDetails(subscription: Subscription, change: ItemChange) {
    const details = this.world.detailsOf(change.immediate!.items, subscription.currency_code, {
      amounts: change.immediate!.amounts,
    });
    const applied = Math.min(change.credit, change.charge);
    const due = change.charge - applied;
    details.totals.credit = String(applied);
    details.totals.credit_to_balance = String(change.credit - applied);
    details.totals.grand_total = String(due);
    details.totals.balance = String(due);
    details.adjusted_totals.grand_total = String(due);
    return details;
  }

  private summary(subscription: Subscription, change: ItemChange) {
    const currency = subscription.currency_code;
    const net = change.charge - change.credit;
    return {
      credit: money(change.credit, currency),
      charge: money(change.charge, currency),
      result: { action: net >= 0 ? 'charge' : 'credit', ...money(Math.abs(net), currency) },
    };
  }

  private applyItems(subscription: Subscription, change: ItemChange, at: string): void {
    const trialing = subscription.status === 'trialing';
    subscription.billing_cycle = change.cycle;
    subscription.current_billing_period = change.period;
    subscription.next_billed_at = change.period.ends_at;
    subscription.items = change.items.map((item) => ({
      status: trialing ? 'trialing' : 'active',
      quantity: item.quantity,
      recurring: true,
      created_at: at,
      updated_at: at,
      previously_billed_at: change.immediate ? at : null,
      next_billed_at: change.period.ends_at,
      trial_dates: subscription.items[0]?.trial_dates ?? null,
      price: item.price,
      product: this.world.product(item.price.product_id),
    }));
  }

  /** PATCH /subscriptions/{id}/preview: the subscription as the update would leave it. */
  preview(id: string, body: Json): Json {
    const subscription = this.world.subscription(id);
    this.refuseIfCanceled(subscription);
    const after = structuredClone(subscription);
    let immediate: Json | null = null;
    let summary: Json | null = null;
    if (body.items !== undefined) {
      const change = this.changeOf(subscription, body);
      this.applyItems(after, change, subscription.updated_at);
      if (change.immediate) {
        const details = this.immediateDetails(subscription, change);
        immediate = {
          billing_period: change.period,
          details: {
            tax_rates_used: details.tax_rates_used,
            totals: details.totals,
            line_items: details.line_items,
          },
          adjustments: [],
        };
      }
      summary = this.summary(subscription, change);
    }
    const recurring = this.world.detailsOf(
      after.items.map((item) => ({ price: item.price, quantity: item.quantity, proration: null })),
      after.currency_code,
      {
        amounts: after.items.map((item) => Number(item.price.unit_price.amount) * item.quantity),
      },
    );
    const period = after.current_billing_period!;
    const nextEnd = addPeriod(new Date(period.ends_at), after.billing_cycle).toISOString();
    return {
      ...after,
      immediate_transaction: immediate,
      next_transaction: {
        billing_period: { starts_at: period.ends_at, ends_at: nextEnd },
        details: {
          tax_rates_used: recurring.tax_rates_used,
          totals: recurring.totals,
          line_items: recurring.line_items,
        },
        adjustments: [],
      },
      recurring_transaction_details: {
        tax_rates_used: recurring.tax_rates_used,
        totals: recurring.totals,
        line_items: recurring.line_items,
      },
      update_summary: summary,
    };
  }

  /**
   * PATCH /subscriptions/{id}: items (with their proration billing mode) here; scheduled change
   * and custom data through the world. A charge that the card on file refuses, or that has no
   * card to go to, is Paddle's 400 and nothing changes.
   */
  update(id: string, body: Json): Subscription {
    const subscription = this.world.subscription(id);
    this.refuseIfCanceled(subscription);
    if (body.items === undefined) return this.world.updateSubscription(id, body);
    const change = this.changeOf(subscription, body);
    // The unused time's credit is an adjustment of the last transaction, and Paddle takes no
    // adjustment while a refund waits for its review.
    if (change.credit > 0 && this.hasPendingRefund(id))
      throw subscriptionError(
        400,
        'subscription_outstanding_pending_refund',
        'You are unable to make further changes to this subscription while there is a pending refund request',
      );
    const due = change.immediate ? Math.max(0, change.charge - change.credit) : 0;
    if (due > 0) {
      if (!this.world.savedCard(subscription.customer_id))
        throw subscriptionError(
          400,
          'subscription_missing_payment_method_cannot_update',
          'Automatically-collected subscriptions require a payment method to make changes that result in a charge.',
        );
      if (this.world.decliningCustomers.has(subscription.customer_id))
        throw subscriptionError(400, 'subscription_payment_declined', 'payment declined');
    }
    const rest: Json = { ...body };
    delete rest.items;
    delete rest.proration_billing_mode;
    delete rest.on_payment_failure;
    const at = this.world.stamp();
    this.applyItems(subscription, change, at);
    // Custom data and a dropped scheduled change go with the same update.
    this.world.updateSubscription(id, rest);
    if (change.immediate) {
      const transaction = this.world.createSubscriptionTransaction(
        subscription,
        'subscription_update',
        change.immediate.items,
        {
          amounts: change.immediate.amounts,
          billingPeriod: change.period,
          status: 'billed',
        },
      );
      transaction.details = this.immediateDetails(subscription, change);
      this.collect(transaction);
    }
    return subscription;
  }

  /** A billed transaction paid from the card on file: paid, then completed. */
  private collect(transaction: Transaction): boolean {
    const at = this.world.stamp();
    const due = Number(transaction.details.totals.grand_total);
    const attempt = due > 0 ? this.world.chargeSaved(transaction, at) : null;
    transaction.updated_at = at;
    if (due > 0 && attempt?.status !== 'captured') {
      this.world.emit('transaction.payment_failed', transaction, at);
      return false;
    }
    transaction.status = 'paid';
    this.world.emit('transaction.paid', transaction, at);
    const done = this.world.stamp();
    transaction.status = 'completed';
    transaction.updated_at = done;
    this.world.emit('transaction.completed', transaction, done);
    return true;
  }

  private refuseIfCanceled(subscription: Subscription): void {
    if (subscription.status === 'canceled')
      throw subscriptionError(
        400,
        'subscription_update_when_canceled',
        'cannot update a subscription that is canceled',
      );
  }

  /**
   * The clock reaching the period end (the sandbox's control: `POST /_sandbox/subscriptions/
   * {id}/renew`, optional `{ outcome: "failed" }` to refuse this charge). A cancel scheduled for
   * then takes effect; otherwise a new period starts and is billed to the card on file.
   */
  renew(id: string, outcome: 'charge' | 'failed' = 'charge'): Subscription {
    const subscription = this.world.subscription(id);
    this.refuseIfCanceled(subscription);
    if (subscription.status === 'past_due')
      throw subscriptionError(
        409,
        'subscription_outstanding_transaction',
        'cannot update subscription due to an outstanding transaction',
      );
    if (subscription.scheduled_change?.action === 'cancel')
      return this.world.cancelSubscription(id, { effective_from: 'immediately' });
    const periodEnd = Date.parse(subscription.current_billing_period!.ends_at);
    // The period (or trial) still running ends here, so the new period starts in the past of
    // whoever records it, as it would.
    const start = new Date(Math.min(periodEnd, this.world.nowMs()));
    const end = addPeriod(start, subscription.billing_cycle);
    const period = { starts_at: start.toISOString(), ends_at: end.toISOString() };
    const wasTrial = subscription.status === 'trialing';
    const at = this.world.stamp();
    subscription.status = 'active';
    subscription.current_billing_period = period;
    subscription.next_billed_at = period.ends_at;
    subscription.first_billed_at ??= period.starts_at;
    subscription.updated_at = at;
    for (const item of subscription.items) {
      item.status = 'active';
      item.previously_billed_at = period.starts_at;
      item.next_billed_at = period.ends_at;
      item.updated_at = at;
    }
    this.world.emit('subscription.updated', subscription, at);
    if (wasTrial) this.world.emit('subscription.activated', subscription, at);
    const transaction = this.world.createSubscriptionTransaction(
      subscription,
      'subscription_recurring',
      subscription.items.map((item) => ({
        price: item.price,
        quantity: item.quantity,
        proration: null,
      })),
      {
        amounts: subscription.items.map(
          (item) => Number(item.price.unit_price.amount) * item.quantity,
        ),
        billingPeriod: period,
        status: 'billed',
        checkoutUrl: this.defaultPaymentLink(),
      },
    );
    if (outcome === 'failed') this.world.decliningCustomers.add(subscription.customer_id);
    if (this.collect(transaction)) return subscription;
    // Dunning starts: the renewal and the subscription are past due.
    const due = this.world.stamp();
    transaction.status = 'past_due';
    transaction.updated_at = due;
    this.world.emit('transaction.updated', transaction, due);
    this.world.emit('transaction.past_due', transaction, due);
    const late = this.world.stamp();
    subscription.status = 'past_due';
    subscription.updated_at = late;
    this.world.emit('subscription.updated', subscription, late);
    this.world.emit('subscription.past_due', subscription, late);
    return subscription;
  }

  /**
   * GET /subscriptions/{id}/update-payment-method-transaction: for a past-due subscription its
   * last past-due transaction (paying it collects the balance and saves the card), otherwise a
   * new zero-value one for the subscription's items.
   */
  paymentMethodTransaction(id: string): Transaction {
    const subscription = this.world.subscription(id);
    this.refuseIfCanceled(subscription);
    const link = this.defaultPaymentLink();
    if (subscription.status === 'past_due') {
      const pastDue = [...this.world.transactions.values()]
        .filter((t) => t.subscription_id === id && t.status === 'past_due')
        .at(-1);
      if (pastDue) {
        pastDue.checkout.url ??= link ? `${link}?_ptxn=${pastDue.id}` : null;
        return pastDue;
      }
    }
    return this.world.createSubscriptionTransaction(
      subscription,
      'subscription_payment_method_change',
      subscription.items.map((item) => ({
        price: item.price,
        quantity: item.quantity,
        proration: null,
      })),
      {
        amounts: subscription.items.map(() => 0),
        billingPeriod: subscription.current_billing_period,
        status: 'ready',
        checkoutUrl: link,
      },
    );
  }
}
