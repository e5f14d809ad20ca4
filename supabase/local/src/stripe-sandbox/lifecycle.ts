import { StripeError, invalidParam, noSuchObject } from './errors.ts';
import { list, obj, str, type FormObject, type FormValue } from './form.ts';
import { stripeId } from './ids.ts';
import {
  addInterval,
  integer,
  metadataOf,
  type Invoice,
  type InvoiceLine,
  type Price,
  type StripeWorld,
  type Subscription,
} from './world.ts';

/**
 * What a subscription does after checkout, as Stripe does it: a price or interval change with
 * prorations (`POST /v1/subscriptions/:id` with `items`, `proration_behavior`,
 * `proration_date`, `payment_behavior`), the invoice preview of such a change
 * (`POST /v1/invoices/create_preview`), and subscription schedules (`/v1/subscription_schedules`:
 * create from a subscription, set phases, release, cancel) whose next phase takes over at the
 * period end.
 *
 * Prorations follow Stripe's documented arithmetic: the unused part of the period on the old
 * price is credited and the same part on the new price charged, both to the second; a change of
 * interval resets the billing cycle to the change and invoices at once (the new price's full
 * period less the credit); a trialing subscription changes price without any charge.
 */

type Json = Record<string, unknown>;
type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';

export interface SchedulePhase extends Json {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number; metadata: Record<string, string> }[];
  metadata: Record<string, string>;
  currency: string;
  proration_behavior: ProrationBehavior;
  trial_end: number | null;
  discounts: never[];
  add_invoice_items: never[];
}

export interface SubscriptionSchedule extends Json {
  id: string;
  object: 'subscription_schedule';
  created: number;
  customer: string;
  subscription: string | null;
  status: 'not_started' | 'active' | 'completed' | 'released' | 'canceled';
  current_phase: { start_date: number; end_date: number } | null;
  phases: SchedulePhase[];
  end_behavior: 'release' | 'cancel';
  released_at: number | null;
  released_subscription: string | null;
  canceled_at: number | null;
  completed_at: number | null;
  metadata: Record<string, string>;
  test_clock: null;
  livemode: false;
}

const BEHAVIORS: readonly ProrationBehavior[] = ['create_prorations', 'always_invoice', 'none'];

const DECLINED = new StripeError(
  402,
  'card_error',
  'Your card was declined.',
  'card_declined',
  undefined,
  'generic_decline',
);

function dateOf(value: FormValue | undefined, param: string, now: number): number | undefined {
  if (value === 'now') return now;
  return integer(value, param);
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** A price change's invoice: what is credited and charged, and whether it is billed now. */
interface PriceChange {
  price: Price;
  quantity: number;
  at: number;
  intervalChanged: boolean;
  /** The period after the change: reset to `at` when the interval changes. */
  periodStart: number;
  periodEnd: number;
  lines: InvoiceLine[];
  invoiceNow: boolean;
}

export class StripeLifecycle {
  readonly schedules = new Map<string, SubscriptionSchedule>();
  /** Customers whose card now declines (the sandbox's stand-in for a card that went bad). */
  readonly decliningCustomers = new Set<string>();
  /** Customers who gave a card at checkout (a trial started without one leaves none). */
  readonly cardsOnFile = new Set<string>();

  constructor(private readonly world: StripeWorld) {
    world.renewalHooks.push((subscription, periodStart) =>
      this.advanceSchedule(subscription, periodStart),
    );
  }

  // --- price and interval changes --------------------------------------------------------

  private priceOf(entry: FormObject, param: string): Price | undefined {
    const priceId = str(entry.price);
    if (priceId) return this.world.price(priceId);
    const data = obj(entry.price_data);
    if (!data) return undefined;
    const price = this.world.priceFrom(data, `${param}[price_data]`);
    this.world.prices.set(price.id, price);
    return price;
  }

  private priceChange(
    subscription: Subscription,
    entry: FormObject,
    behavior: ProrationBehavior,
    at: number,
    param: string,
  ): PriceChange | null {
    const item = subscription.items.data[0]!;
    const itemId = str(entry.id);
    if (itemId && itemId !== item.id)
      throw noSuchObject('subscription_item', itemId, `${param}[id]`);
    const price = this.priceOf(entry, param) ?? item.price;
    const quantity = integer(entry.quantity, `${param}[quantity]`, 1) ?? item.quantity;
    if (price.id === item.price.id && quantity === item.quantity) return null;
    if (price.currency !== subscription.currency)
      throw invalidParam(
        `${param}[price]`,
        `The price specified has currency ${price.currency}, which does not match the subscription's currency ${subscription.currency}.`,
      );
    const start = item.current_period_start;
    const end = item.current_period_end;
    const intervalChanged =
      price.recurring.interval !== item.price.recurring.interval ||
      price.recurring.interval_count !== item.price.recurring.interval_count;
    const trialing = subscription.status === 'trialing';
    const periodEnd =
      intervalChanged && !trialing
        ? addInterval(at, price.recurring.interval, price.recurring.interval_count)
        : end;
    const lines: InvoiceLine[] = [];
    const unused = Math.max(0, end - at) / Math.max(1, end - start);
    const oldAmount = item.price.unit_amount * item.quantity;
    const newAmount = price.unit_amount * quantity;
    if (!trialing && behavior !== 'none' && unused > 0) {
      lines.push(
        this.world.invoiceLine(
          subscription,
          -Math.round(oldAmount * unused),
          `Unused time on ${item.quantity} × ${item.price.product} after ${day(at)}`,
          at,
          end,
          true,
        ),
      );
      if (!intervalChanged)
        lines.push(
          this.world.invoiceLine(
            subscription,
            Math.round(newAmount * unused),
            `Remaining time on ${quantity} × ${price.product} after ${day(at)}`,
            at,
            end,
            true,
          ),
        );
    }
    if (intervalChanged && !trialing)
      lines.push(
        this.world.invoiceLine(
          subscription,
          newAmount,
          `${quantity} × ${price.product}`,
          at,
          periodEnd,
          false,
        ),
      );
    return {
      price,
      quantity,
      at,
      intervalChanged: intervalChanged && !trialing,
      periodStart: intervalChanged && !trialing ? at : start,
      periodEnd,
      lines,
      invoiceNow: !trialing && (intervalChanged || behavior === 'always_invoice'),
    };
  }

  private readBehavior(value: FormValue | undefined, param: string): ProrationBehavior {
    const behavior = (str(value) ?? 'create_prorations') as ProrationBehavior;
    if (!BEHAVIORS.includes(behavior))
      throw invalidParam(
        param,
        'Invalid proration_behavior: must be one of create_prorations, always_invoice, or none',
      );
    return behavior;
  }

  /** `POST /v1/subscriptions/:id`: the world's own fields plus `items` and prorations. */
  updateSubscription(id: string, form: FormObject): Subscription {
    const entries = list(form.items);
    const behavior = this.readBehavior(form.proration_behavior, 'proration_behavior');
    const paymentBehavior = str(form.payment_behavior) ?? 'allow_incomplete';
    let invoice: Invoice | null = null;
    let declined = false;
    const updated = this.world.updateSubscription(id, form, (subscription, previous) => {
      if (!entries || entries.length === 0) return;
      if (entries.length > 1)
        throw invalidParam('items', 'This sandbox supports one subscription item.');
      if (subscription.schedule)
        throw new StripeError(
          400,
          'invalid_request_error',
          `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        );
      const at = integer(form.proration_date, 'proration_date') ?? this.world.now();
      const change = this.priceChange(
        subscription,
        obj(entries[0]) ?? {},
        behavior,
        at,
        'items[0]',
      );
      if (!change) return;
      const charge = change.lines.reduce((sum, line) => sum + line.amount, 0);
      declined =
        change.invoiceNow && charge > 0 && this.decliningCustomers.has(subscription.customer);
      // error_if_incomplete: a payment that fails leaves the subscription as it was.
      if (declined && paymentBehavior === 'error_if_incomplete') throw DECLINED;
      previous.items = structuredClone(subscription.items);
      const item = subscription.items.data[0]!;
      item.price = change.price;
      item.quantity = change.quantity;
      if (change.intervalChanged) {
        previous.billing_cycle_anchor = subscription.billing_cycle_anchor;
        item.current_period_start = change.periodStart;
        item.current_period_end = change.periodEnd;
        subscription.billing_cycle_anchor = change.at;
      }
      if (change.invoiceNow) {
        invoice = this.world.createInvoice(
          subscription,
          0,
          'subscription_update',
          change.periodStart,
          change.periodEnd,
          null,
          change.lines,
        );
        previous.latest_invoice = subscription.latest_invoice;
        subscription.latest_invoice = invoice.id;
        if (declined) {
          previous.status = subscription.status;
          subscription.status = 'past_due';
        }
      } else if (change.lines.length > 0) {
        this.world.pendingInvoiceItems.set(id, [
          ...(this.world.pendingInvoiceItems.get(id) ?? []),
          ...change.lines,
        ]);
      }
    });
    const billed = invoice as Invoice | null;
    if (billed) {
      if (declined) {
        billed.attempt_count = 1;
        billed.attempted = true;
        this.world.emit('invoice.payment_failed', billed);
      } else {
        this.world.payInvoice(billed, true);
      }
    }
    return updated;
  }

  /**
   * `POST /v1/invoices/create_preview` for a subscription change: the invoice the change would
   * bring, nothing changed.
   */
  previewInvoice(form: FormObject): Json {
    const subscriptionId = str(form.subscription);
    if (!subscriptionId)
      throw invalidParam('subscription', 'This sandbox previews subscription changes only.');
    const subscription = this.world.subscription(subscriptionId);
    const details = obj(form.subscription_details) ?? {};
    const behavior = this.readBehavior(
      details.proration_behavior,
      'subscription_details[proration_behavior]',
    );
    const at =
      integer(details.proration_date, 'subscription_details[proration_date]') ?? this.world.now();
    const entries = list(details.items) ?? [];
    const change = entries[0]
      ? this.priceChange(
          subscription,
          obj(entries[0]) ?? {},
          behavior,
          at,
          'subscription_details[items][0]',
        )
      : null;
    const lines = change?.lines ?? [];
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    return {
      id: null,
      object: 'invoice',
      created: this.world.now(),
      customer: subscription.customer,
      currency: subscription.currency,
      status: 'draft',
      billing_reason: 'upcoming',
      subtotal: total,
      total,
      amount_due: Math.max(0, total),
      amount_remaining: Math.max(0, total),
      amount_paid: 0,
      period_start: change?.periodStart ?? at,
      period_end: change?.periodEnd ?? at,
      lines: { object: 'list', data: lines, has_more: false, url: '/v1/invoices/upcoming/lines' },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      livemode: false,
    };
  }

  /** Whether a charge without the customer present succeeds: a card on file that still works. */
  private hasWorkingCard(customer: string): boolean {
    return this.cardsOnFile.has(customer) && !this.decliningCustomers.has(customer);
  }

  /**
   * `POST /v1/subscriptions`: a new subscription for a customer, charged to the card on file.
   * Without one that works, `error_if_incomplete` refuses with Stripe's card errors.
   */
  createSubscription(form: FormObject): Subscription {
    const customerId = str(form.customer);
    if (!customerId) throw invalidParam('customer', 'Missing required param: customer.');
    this.world.customer(customerId);
    const entries = list(form.items) ?? [];
    if (entries.length !== 1)
      throw invalidParam('items', 'This sandbox supports exactly one subscription item.');
    const entry = obj(entries[0]) ?? {};
    const price = this.priceOf(entry, 'items[0]');
    if (!price) throw invalidParam('items[0][price]', 'Missing required param: items[0][price].');
    if (!this.hasWorkingCard(customerId)) {
      if (this.decliningCustomers.has(customerId)) throw DECLINED;
      throw new StripeError(
        400,
        'invalid_request_error',
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
        'resource_missing',
      );
    }
    return this.world.startSubscription(customerId, {
      price,
      quantity: integer(entry.quantity, 'items[0][quantity]', 1) ?? 1,
      trialDays: 0,
      subscriptionMetadata: metadataOf(form.metadata, 'metadata'),
      discount: null,
    });
  }

  // --- subscription schedules ------------------------------------------------------------

  schedule(id: string): SubscriptionSchedule {
    const schedule = this.schedules.get(id);
    if (!schedule) throw noSuchObject('subscription_schedule', id, 'schedule');
    return schedule;
  }

  /** `POST /v1/subscription_schedules` with `from_subscription` (the one way we make them). */
  createSchedule(form: FormObject): SubscriptionSchedule {
    const subscriptionId = str(form.from_subscription);
    if (!subscriptionId)
      throw invalidParam(
        'from_subscription',
        'This sandbox creates schedules from an existing subscription only.',
      );
    const subscription = this.world.subscription(subscriptionId);
    if (subscription.status === 'canceled')
      throw invalidParam('from_subscription', 'You cannot migrate a canceled subscription.');
    if (subscription.schedule)
      throw invalidParam(
        'from_subscription',
        `You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`,
      );
    const item = subscription.items.data[0]!;
    const schedule: SubscriptionSchedule = {
      id: stripeId('sub_sched'),
      object: 'subscription_schedule',
      created: this.world.now(),
      customer: subscription.customer,
      subscription: subscription.id,
      status: 'active',
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          items: [{ price: item.price.id, quantity: item.quantity, metadata: {} }],
          metadata: {},
          currency: subscription.currency,
          proration_behavior: 'create_prorations',
          trial_end: subscription.status === 'trialing' ? subscription.trial_end : null,
          discounts: [],
          add_invoice_items: [],
        },
      ],
      end_behavior: 'release',
      released_at: null,
      released_subscription: null,
      canceled_at: null,
      completed_at: null,
      metadata: metadataOf(form.metadata, 'metadata'),
      test_clock: null,
      livemode: false,
    };
    this.schedules.set(schedule.id, schedule);
    subscription.schedule = schedule.id;
    this.world.emit('subscription_schedule.created', schedule);
    this.world.emit('customer.subscription.updated', subscription, { schedule: null });
    return schedule;
  }

  /** `POST /v1/subscription_schedules/:id`: new phases and end behaviour. */
  updateSchedule(id: string, form: FormObject): SubscriptionSchedule {
    const schedule = this.schedule(id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started')
      throw invalidParam(
        'schedule',
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    const previous: Json = {};
    const endBehavior = str(form.end_behavior);
    if (endBehavior !== undefined) {
      if (endBehavior !== 'release' && endBehavior !== 'cancel')
        throw invalidParam('end_behavior', 'Invalid end_behavior: must be one of release, cancel');
      previous.end_behavior = schedule.end_behavior;
      schedule.end_behavior = endBehavior;
    }
    const entries = list(form.phases);
    if (entries) {
      const now = this.world.now();
      const phases: SchedulePhase[] = [];
      entries.forEach((value, index) => {
        const param = `phases[${index}]`;
        const phase = obj(value) ?? {};
        const items = list(phase.items) ?? [];
        const first = obj(items[0]);
        if (!first) throw invalidParam(`${param}[items]`, 'Each phase needs at least one item.');
        const price = this.priceOf(first, `${param}[items][0]`);
        if (!price) throw invalidParam(`${param}[items][0][price]`, 'Missing required param.');
        const start =
          dateOf(phase.start_date, `${param}[start_date]`, now) ??
          phases[index - 1]?.end_date ??
          schedule.current_phase?.start_date ??
          now;
        if (index === 0 && schedule.current_phase && start !== schedule.current_phase.start_date)
          throw invalidParam(
            `${param}[start_date]`,
            'You can not modify the start date of the current phase.',
          );
        // `duration` (or else one period of its price) when no end_date is given.
        const duration = obj(phase.duration);
        const durationInterval = str(duration?.interval) as
          Price['recurring']['interval'] | undefined;
        if (duration && !['day', 'week', 'month', 'year'].includes(durationInterval ?? ''))
          throw invalidParam(
            `${param}[duration][interval]`,
            'Invalid duration[interval]: must be one of day, week, month, or year',
          );
        const end =
          dateOf(phase.end_date, `${param}[end_date]`, now) ??
          (duration
            ? addInterval(
                start,
                durationInterval!,
                integer(duration.interval_count, `${param}[duration][interval_count]`, 1) ?? 1,
              )
            : addInterval(start, price.recurring.interval, price.recurring.interval_count));
        if (end <= start)
          throw invalidParam(`${param}[end_date]`, 'The end date must be after the start date.');
        phases.push({
          start_date: start,
          end_date: end,
          items: [
            {
              price: price.id,
              quantity: integer(first.quantity, `${param}[items][0][quantity]`, 1) ?? 1,
              metadata: {},
            },
          ],
          metadata: metadataOf(phase.metadata, `${param}[metadata]`),
          currency: price.currency,
          proration_behavior: this.readBehavior(
            phase.proration_behavior,
            `${param}[proration_behavior]`,
          ),
          trial_end: null,
          discounts: [],
          add_invoice_items: [],
        });
      });
      previous.phases = schedule.phases;
      schedule.phases = phases;
    }
    if (form.metadata !== undefined) {
      previous.metadata = schedule.metadata;
      schedule.metadata = { ...schedule.metadata, ...metadataOf(form.metadata, 'metadata') };
    }
    this.world.emit('subscription_schedule.updated', schedule, previous);
    return schedule;
  }

  /** `POST /v1/subscription_schedules/:id/release`: the subscription goes on by itself. */
  releaseSchedule(id: string): SubscriptionSchedule {
    const schedule = this.schedule(id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started')
      throw invalidParam(
        'schedule',
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in \`not_started\`, \`active\`.`,
      );
    this.release(schedule);
    return schedule;
  }

  private release(schedule: SubscriptionSchedule): void {
    const subscription = schedule.subscription
      ? this.world.subscription(schedule.subscription)
      : null;
    schedule.status = 'released';
    schedule.released_at = this.world.now();
    schedule.released_subscription = schedule.subscription;
    schedule.subscription = null;
    schedule.current_phase = null;
    this.world.emit('subscription_schedule.released', schedule);
    if (subscription) {
      subscription.schedule = null;
      this.world.emit('customer.subscription.updated', subscription, { schedule: schedule.id });
    }
  }

  /** `POST /v1/subscription_schedules/:id/cancel`: the schedule and its subscription end. */
  cancelSchedule(id: string): SubscriptionSchedule {
    const schedule = this.schedule(id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started')
      throw invalidParam(
        'schedule',
        `You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    schedule.status = 'canceled';
    schedule.canceled_at = this.world.now();
    schedule.current_phase = null;
    this.world.emit('subscription_schedule.canceled', schedule);
    if (schedule.subscription) this.world.cancelSubscription(schedule.subscription);
    return schedule;
  }

  /**
   * At a period end: the phase starting then sets the subscription's price and metadata; past
   * the last phase, the end behaviour applies.
   */
  private advanceSchedule(subscription: Subscription, periodStart: number): void {
    if (!subscription.schedule) return;
    const schedule = this.schedule(subscription.schedule);
    const next = schedule.phases.find((phase) => phase.start_date === periodStart);
    if (!next) {
      const last = schedule.phases[schedule.phases.length - 1];
      if (last && last.end_date <= periodStart) this.release(schedule);
      return;
    }
    const item = subscription.items.data[0]!;
    const phaseItem = next.items[0]!;
    item.price = this.world.price(phaseItem.price);
    item.quantity = phaseItem.quantity;
    subscription.metadata = { ...subscription.metadata, ...next.metadata };
    const previous = { current_phase: schedule.current_phase };
    schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
    this.world.emit('subscription_schedule.updated', schedule, previous);
  }
}
