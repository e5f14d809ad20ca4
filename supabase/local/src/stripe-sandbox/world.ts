import { CouponBook, discountAmount, sessionDiscount, type AppliedDiscount } from './coupons.ts';
import { StripeError, invalidParam, missingParam, noSuchObject } from './errors.ts';
import { list, obj, str, type FormObject, type FormValue } from './form.ts';
import { stripeId } from './ids.ts';

/**
 * The sandbox's Stripe account: its objects in memory, shaped as Stripe's API returns them
 * (the fields our code and the official SDK read, plus the identifying ones), and the events
 * each change emits. State lives as long as the stack process, like a test-mode account that
 * is wiped on restart.
 */

export const API_VERSION = '2026-10-28.endive';

type Json = Record<string, unknown>;
type Metadata = Record<string, string>;
type Interval = 'day' | 'week' | 'month' | 'year';

export interface Price extends Json {
  id: string;
  object: 'price';
  active: boolean;
  currency: string;
  unit_amount: number;
  product: string;
  type: 'recurring';
  recurring: { interval: Interval; interval_count: number };
  created: number;
  livemode: false;
  metadata: Metadata;
}

export interface Customer extends Json {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  name: string | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
  livemode: false;
}

export interface CheckoutSession extends Json {
  id: string;
  object: 'checkout.session';
  created: number;
  expires_at: number;
  mode: 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  metadata: Metadata;
  subscription: string | null;
  invoice: string | null;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  discounts: { coupon: string; promotion_code: string | null }[];
  /** `if_required`: a free trial may start without a card. */
  payment_method_collection: 'always' | 'if_required';
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  livemode: false;
}

export interface Subscription extends Json {
  id: string;
  object: 'subscription';
  created: number;
  customer: string;
  status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'incomplete' | 'unpaid';
  currency: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  start_date: number;
  trial_start: number | null;
  trial_end: number | null;
  billing_cycle_anchor: number;
  latest_invoice: string | null;
  /** Discount ids (`di_…`), as API versions since 2024 list them. */
  discounts: string[];
  /** The subscription schedule steering it, if any. */
  schedule: string | null;
  metadata: Metadata;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      created: number;
      current_period_start: number;
      current_period_end: number;
      quantity: number;
      price: Price;
      subscription: string;
      metadata: Metadata;
    }[];
    has_more: false;
    url: string;
  };
  livemode: false;
}

export interface Invoice extends Json {
  id: string;
  object: 'invoice';
  created: number;
  customer: string;
  currency: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  number: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  subtotal: number;
  total: number;
  total_discount_amounts: { amount: number; discount: string }[];
  /** The invoice's lines: the period's price, or proration credits and charges. */
  lines: { object: 'list'; data: InvoiceLine[]; has_more: false; url: string };
  hosted_invoice_url: string;
  invoice_pdf: string;
  period_start: number;
  period_end: number;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Metadata };
  };
  status_transitions: { finalized_at: number; paid_at: number | null };
  livemode: false;
}

export interface InvoiceLine extends Json {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string } };
  quantity: number;
  parent:
    | {
        type: 'subscription_item_details';
        subscription_item_details: { proration: boolean; subscription: string };
      }
    | {
        /** A line from an invoice item (`POST /v1/invoiceitems`, invoice-items.ts). */
        type: 'invoice_item_details';
        invoice_item_details: { invoice_item: string; proration: false; subscription: string };
      };
}

export interface StripeEvent extends Json {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: Json; previous_attributes?: Json };
}

/** What a checkout session will subscribe to, kept beside the session (Stripe's line_items). */
export interface SessionPlan {
  price: Price;
  quantity: number;
  trialDays: number;
  subscriptionMetadata: Metadata;
  discount: AppliedDiscount | null;
  /**
   * One-time line items beside the recurring one (Checkout in subscription mode adds them to
   * the first invoice only): their total, minor units.
   */
  oneTimeAmount?: number;
}

const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];

export function metadataOf(value: FormValue | undefined, param: string): Metadata {
  if (value === undefined || value === '') return {};
  const object = obj(value);
  if (!object) throw invalidParam(param, `Invalid object: ${param}`);
  const out: Metadata = {};
  for (const [key, entry] of Object.entries(object)) {
    if (typeof entry !== 'string')
      throw invalidParam(`${param}[${key}]`, `Invalid string: ${param}[${key}]`);
    if (entry !== '') out[key] = entry;
  }
  return out;
}

export function integer(value: FormValue | undefined, param: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const text = str(value);
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < min)
    throw invalidParam(param, `Invalid integer: ${text ?? ''}`);
  return Number(text);
}

function bool(value: FormValue | undefined, param: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidParam(param, `Invalid boolean: ${str(value) ?? ''}`);
}

function required(value: string | undefined, param: string): string {
  if (value === undefined || value === '') throw missingParam(param);
  return value;
}

/** `start` plus `count` intervals, in UTC calendar terms as Stripe bills (seconds). */
export function addInterval(start: number, interval: Interval, count = 1): number {
  const date = new Date(start * 1000);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCFullYear(date.getUTCFullYear() + count);
  return Math.floor(date.getTime() / 1000);
}

export interface WorldOptions {
  /** Where the sandbox's pages are served (the hosted checkout's `url`). */
  publicUrl: string;
  /** Unix seconds. */
  now?: () => number;
  /** A session's life without `expires_at` (Stripe: 24 hours). */
  checkoutExpirySeconds?: number;
  emit: (event: StripeEvent) => void;
}

export class StripeWorld {
  readonly prices = new Map<string, Price>();
  readonly customers = new Map<string, Customer>();
  readonly sessions = new Map<string, CheckoutSession>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly invoices = new Map<string, Invoice>();
  readonly events: StripeEvent[] = [];
  readonly discounts: CouponBook = new CouponBook(() => this.now());
  /** Proration amounts waiting for a subscription's next invoice (`create_prorations`). */
  readonly pendingInvoiceItems = new Map<string, InvoiceLine[]>();
  /** Run when a period ends, before the next one is billed (subscription schedules). */
  readonly renewalHooks: ((subscription: Subscription, periodStart: number) => void)[] = [];
  private readonly sessionPlans = new Map<string, SessionPlan>();
  private invoiceCount = 0;

  constructor(private readonly options: WorldOptions) {}

  now(): number {
    return this.options.now?.() ?? Math.floor(Date.now() / 1000);
  }

  /** Records and delivers an event (the sandbox's other modules emit through it too). */
  emit(type: string, object: Json, previous?: Json): void {
    const event: StripeEvent = {
      id: stripeId('evt', 24),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: previous } : {}),
      },
    };
    this.events.push(event);
    this.options.emit(event);
  }

  // --- prices ----------------------------------------------------------------------------

  /** A price from `price_data`-style fields (also read by the sandbox's other modules). */
  priceFrom(data: FormObject, param: string): Price {
    const currency = required(str(data.currency), `${param}[currency]`).toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalidParam(`${param}[currency]`, `Invalid currency: ${currency}`);
    const unitAmount = integer(data.unit_amount, `${param}[unit_amount]`);
    if (unitAmount === undefined) throw missingParam(`${param}[unit_amount]`);
    const recurring = obj(data.recurring);
    if (!recurring) throw missingParam(`${param}[recurring]`);
    const interval = str(recurring.interval) as Interval | undefined;
    if (!interval || !INTERVALS.includes(interval))
      throw invalidParam(
        `${param}[recurring][interval]`,
        `Invalid recurring[interval]: must be one of day, week, month, or year`,
      );
    const productName = str(obj(data.product_data)?.name);
    const product = str(data.product) ?? (productName ? stripeId('prod', 14) : undefined);
    if (!product) throw missingParam(`${param}[product]`);
    const price: Price = {
      id: stripeId('price'),
      object: 'price',
      active: true,
      currency,
      unit_amount: unitAmount,
      product,
      type: 'recurring',
      recurring: {
        interval,
        interval_count:
          integer(recurring.interval_count, `${param}[recurring][interval_count]`, 1) ?? 1,
      },
      created: this.now(),
      livemode: false,
      metadata: metadataOf(data.metadata, `${param}[metadata]`),
    };
    return price;
  }

  createPrice(form: FormObject): Price {
    const price = this.priceFrom(form, 'price');
    this.prices.set(price.id, price);
    return price;
  }

  price(id: string): Price {
    const price = this.prices.get(id);
    if (!price) throw noSuchObject('price', id);
    return price;
  }

  // --- customers -------------------------------------------------------------------------

  createCustomer(form: FormObject): Customer {
    const customer: Customer = {
      id: stripeId('cus', 14),
      object: 'customer',
      created: this.now(),
      email: str(form.email) ?? null,
      name: str(form.name) ?? null,
      metadata: metadataOf(form.metadata, 'metadata'),
      invoice_settings: { default_payment_method: null },
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    this.emit('customer.created', customer);
    return customer;
  }

  customer(id: string): Customer {
    const customer = this.customers.get(id);
    if (!customer) throw noSuchObject('customer', id);
    return customer;
  }

  // --- checkout sessions -----------------------------------------------------------------

  createCheckoutSession(form: FormObject): CheckoutSession {
    const mode = required(str(form.mode), 'mode');
    if (mode !== 'subscription')
      throw invalidParam('mode', 'This sandbox only supports `mode=subscription`.');
    const successUrl = required(str(form.success_url), 'success_url');
    const lineItems = list(form.line_items);
    if (!lineItems || lineItems.length === 0) throw missingParam('line_items');
    const oneTimeAmount = lineItems
      .slice(1)
      .reduce<number>((sum, raw, index) => sum + this.oneTimeItemAmount(raw, index + 1), 0);
    const item = obj(lineItems[0]);
    if (!item) throw invalidParam('line_items[0]', 'Invalid object');
    const priceId = str(item.price);
    const priceData = obj(item.price_data);
    let price: Price;
    if (priceId) price = this.price(priceId);
    else if (priceData) {
      price = this.priceFrom(priceData, 'line_items[0][price_data]');
      this.prices.set(price.id, price);
    } else throw missingParam('line_items[0][price]');
    const quantity = integer(item.quantity, 'line_items[0][quantity]', 1) ?? 1;
    const customerId = str(form.customer);
    if (customerId) this.customer(customerId);
    const subscriptionData = obj(form.subscription_data) ?? {};
    const trialDays =
      integer(subscriptionData.trial_period_days, 'subscription_data[trial_period_days]', 1) ?? 0;
    const discount = this.discounts.discountFrom(form.discounts, price.currency);
    const subtotal = price.unit_amount * quantity + oneTimeAmount;
    // With a trial the first invoice is free; the coupon then waits for the first charge.
    const discounted = discount && trialDays === 0 ? discountAmount(discount.coupon, subtotal) : 0;
    const now = this.now();
    const expiresAt = integer(form.expires_at, 'expires_at');
    // Stripe takes 30 minutes to 24 hours; the sandbox takes any future time up to 24 hours, so
    // a test can leave a checkout for seconds.
    if (expiresAt !== undefined && (expiresAt <= now || expiresAt > now + 24 * 3600))
      throw invalidParam(
        'expires_at',
        'The `expires_at` timestamp must be in the future and at most 24 hours from now.',
      );
    const id = stripeId('cs_test', 58);
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      created: now,
      expires_at: expiresAt ?? now + (this.options.checkoutExpirySeconds ?? 24 * 3600),
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customerId ?? null,
      customer_email: str(form.customer_email) ?? null,
      client_reference_id: str(form.client_reference_id) ?? null,
      success_url: successUrl,
      cancel_url: str(form.cancel_url) ?? null,
      url: `${this.options.publicUrl}/c/pay/${id}`,
      metadata: metadataOf(form.metadata, 'metadata'),
      subscription: null,
      invoice: null,
      currency: price.currency,
      amount_subtotal: trialDays > 0 ? 0 : subtotal,
      amount_total: trialDays > 0 ? 0 : subtotal - discounted,
      discounts: discount ? [sessionDiscount(discount)] : [],
      payment_method_collection:
        str(form.payment_method_collection) === 'if_required' ? 'if_required' : 'always',
      total_details: { amount_discount: discounted, amount_shipping: 0, amount_tax: 0 },
      livemode: false,
    };
    this.sessions.set(id, session);
    this.sessionPlans.set(id, {
      price,
      quantity,
      trialDays,
      subscriptionMetadata: metadataOf(subscriptionData.metadata, 'subscription_data[metadata]'),
      discount,
      oneTimeAmount,
    });
    return session;
  }

  /** A one-time line item's amount (price_data without `recurring`), checked as Stripe does. */
  private oneTimeItemAmount(raw: FormValue | undefined, index: number): number {
    const param = `line_items[${index}]`;
    const item = obj(raw);
    if (!item) throw invalidParam(param, 'Invalid object');
    const data = obj(item.price_data);
    if (!data) throw missingParam(`${param}[price_data]`);
    if (data.recurring !== undefined)
      throw invalidParam(
        `${param}[price_data][recurring]`,
        'This sandbox supports one recurring line item per session.',
      );
    if (!str(obj(data.product_data)?.name))
      throw missingParam(`${param}[price_data][product_data]`);
    const unitAmount = integer(data.unit_amount, `${param}[price_data][unit_amount]`);
    if (unitAmount === undefined) throw missingParam(`${param}[price_data][unit_amount]`);
    return unitAmount * (integer(item.quantity, `${param}[quantity]`, 1) ?? 1);
  }

  session(id: string): CheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw noSuchObject('checkout.session', id, 'session');
    if (session.status === 'open' && session.expires_at <= this.now()) this.expire(session);
    return session;
  }

  private expire(session: CheckoutSession): void {
    session.status = 'expired';
    session.url = null;
    this.emit('checkout.session.expired', session);
  }

  /** Open sessions past their `expires_at` expire, each with its event (the sandbox's timer). */
  expireDueSessions(): void {
    const now = this.now();
    for (const session of this.sessions.values())
      if (session.status === 'open' && session.expires_at <= now) this.expire(session);
  }

  /** `POST /v1/checkout/sessions/:id/expire`: an open session is closed now. */
  expireSession(id: string): CheckoutSession {
    const session = this.session(id);
    if (session.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    this.expire(session);
    return session;
  }

  /** What the hosted page shows: the plan's price, interval and trial. */
  sessionPlan(id: string): SessionPlan {
    this.session(id);
    return this.sessionPlans.get(id)!;
  }

  /** The checkout page's card was accepted: the customer, subscription and first invoice exist. */
  completeCheckout(id: string, email: string | null): CheckoutSession {
    const session = this.session(id);
    if (session.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        'This Checkout Session is no longer active.',
        'checkout_session_inactive',
      );
    const plan = this.sessionPlans.get(id)!;
    const customer = session.customer
      ? this.customer(session.customer)
      : this.createCustomer({ ...(email ? { email } : {}) });
    if (plan.discount) this.discounts.redeem(plan.discount);
    const subscription = this.startSubscription(customer.id, plan);
    const invoice = this.subscriptions.get(subscription.id)!.latest_invoice!;
    session.status = 'complete';
    session.payment_status = plan.trialDays > 0 ? 'no_payment_required' : 'paid';
    session.customer = customer.id;
    session.subscription = subscription.id;
    session.invoice = invoice;
    session.url = null;
    this.emit('checkout.session.completed', session);
    return session;
  }

  // --- subscriptions ---------------------------------------------------------------------

  /** A subscription on `plan`, its first invoice paid (checkout, and `POST /v1/subscriptions`). */
  startSubscription(customer: string, plan: SessionPlan): Subscription {
    const now = this.now();
    const trialEnd = plan.trialDays > 0 ? now + plan.trialDays * 86_400 : null;
    const periodEnd =
      trialEnd ??
      addInterval(now, plan.price.recurring.interval, plan.price.recurring.interval_count);
    const id = stripeId('sub');
    const subscription: Subscription = {
      id,
      object: 'subscription',
      created: now,
      customer,
      status: trialEnd ? 'trialing' : 'active',
      currency: plan.price.currency,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      start_date: now,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      billing_cycle_anchor: periodEnd,
      latest_invoice: null,
      discounts: plan.discount ? [plan.discount.id] : [],
      schedule: null,
      metadata: plan.subscriptionMetadata,
      items: {
        object: 'list',
        data: [
          {
            id: stripeId('si', 14),
            object: 'subscription_item',
            created: now,
            current_period_start: now,
            current_period_end: periodEnd,
            quantity: plan.quantity,
            price: plan.price,
            subscription: id,
            metadata: {},
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      livemode: false,
    };
    this.subscriptions.set(id, subscription);
    const amount = trialEnd
      ? 0
      : plan.price.unit_amount * plan.quantity + (plan.oneTimeAmount ?? 0);
    const invoice = this.createInvoice(
      subscription,
      amount,
      'subscription_create',
      now,
      periodEnd,
      trialEnd ? null : plan.discount,
    );
    subscription.latest_invoice = invoice.id;
    this.emit('customer.subscription.created', subscription);
    this.payInvoice(invoice, true);
    return subscription;
  }

  subscription(id: string): Subscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw noSuchObject('subscription', id);
    return subscription;
  }

  /**
   * `POST /v1/subscriptions/:id`. `more` applies the parameters other modules own (items and
   * proration) into the same change, so one call emits one `customer.subscription.updated`.
   */
  updateSubscription(
    id: string,
    form: FormObject,
    more?: (subscription: Subscription, previous: Json) => void,
  ): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled')
      throw new StripeError(
        400,
        'invalid_request_error',
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    const previous: Json = {};
    const cancelAtPeriodEnd = bool(form.cancel_at_period_end, 'cancel_at_period_end');
    if (
      cancelAtPeriodEnd !== undefined &&
      cancelAtPeriodEnd !== subscription.cancel_at_period_end
    ) {
      Object.assign(previous, {
        cancel_at_period_end: subscription.cancel_at_period_end,
        cancel_at: subscription.cancel_at,
        canceled_at: subscription.canceled_at,
      });
      subscription.cancel_at_period_end = cancelAtPeriodEnd;
      subscription.cancel_at = cancelAtPeriodEnd
        ? subscription.items.data[0]!.current_period_end
        : null;
      subscription.canceled_at = cancelAtPeriodEnd ? this.now() : null;
    }
    more?.(subscription, previous);
    if (form.metadata !== undefined) {
      previous.metadata ??= { ...subscription.metadata };
      subscription.metadata = {
        ...subscription.metadata,
        ...metadataOf(form.metadata, 'metadata'),
      };
    }
    if (Object.keys(previous).length > 0)
      this.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  cancelSubscription(id: string): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled')
      throw new StripeError(
        400,
        'invalid_request_error',
        `No such subscription: '${id}'`,
        'resource_missing',
        'id',
      );
    const now = this.now();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /**
   * The sandbox's stand-in for a test clock reaching the period end: the next period's
   * invoice is paid or fails, and the subscription moves on or falls past due.
   */
  renewSubscription(id: string, outcome: 'paid' | 'failed'): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled')
      throw invalidParam('id', 'The subscription is canceled.');
    const previous: Json = {
      status: subscription.status,
      items: structuredClone(subscription.items),
      metadata: { ...subscription.metadata },
      trial_end: subscription.trial_end,
    };
    // The clock reaches the period end now: a period (or trial) still running ends here, so the
    // renewal's dates are in the past of the database that records them, as they would be.
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const start = Math.min(periodEnd, this.now());
    if (subscription.trial_end !== null && subscription.trial_end > start)
      subscription.trial_end = start;
    // The schedule's phase that begins where the ending period ends takes over (its price and
    // metadata): phases are dated by the period boundary, whenever the clock reaches it.
    for (const hook of this.renewalHooks) hook(subscription, periodEnd);
    const item = subscription.items.data[0]!;
    const end = addInterval(
      start,
      item.price.recurring.interval,
      item.price.recurring.interval_count,
    );
    const amount = item.price.unit_amount * item.quantity;
    const pending = this.pendingInvoiceItems.get(id) ?? [];
    this.pendingInvoiceItems.delete(id);
    const invoice = this.createInvoice(
      subscription,
      amount,
      'subscription_cycle',
      start,
      end,
      null,
      [
        ...pending,
        this.invoiceLine(
          subscription,
          amount,
          `${item.quantity} × ${item.price.product}`,
          start,
          end,
          false,
        ),
      ],
    );
    subscription.latest_invoice = invoice.id;
    // The new period starts either way (Stripe moves on and leaves the invoice open), so a
    // trial that fails to convert is past due with its trial end as the period start.
    item.current_period_start = start;
    item.current_period_end = end;
    if (outcome === 'paid') {
      subscription.status = 'active';
      this.payInvoice(invoice, false);
    } else {
      invoice.attempt_count = 1;
      invoice.attempted = true;
      subscription.status = 'past_due';
      this.emit('invoice.payment_failed', invoice);
    }
    this.emit('customer.subscription.updated', subscription, previous);
    return subscription;
  }

  // --- invoices --------------------------------------------------------------------------

  createInvoice(
    subscription: Subscription,
    amount: number,
    reason: Invoice['billing_reason'],
    start: number,
    end: number,
    discount: AppliedDiscount | null = null,
    lines?: InvoiceLine[],
  ): Invoice {
    const now = this.now();
    this.invoiceCount++;
    const id = stripeId('in');
    const item = subscription.items.data[0]!;
    const invoiceLines = lines ?? [
      this.invoiceLine(
        subscription,
        amount,
        `${item.quantity} × ${item.price.product}`,
        start,
        end,
        false,
      ),
    ];
    const subtotal = invoiceLines.reduce((sum, line) => sum + line.amount, 0);
    const discounted = discount ? discountAmount(discount.coupon, Math.max(0, subtotal)) : 0;
    // A negative total (a downgrade's credit) is owed to the customer, not charged.
    const due = Math.max(0, subtotal - discounted);
    const invoice: Invoice = {
      id,
      object: 'invoice',
      created: now,
      customer: subscription.customer,
      currency: subscription.currency,
      status: 'open',
      number: `SBX-${String(this.invoiceCount).padStart(4, '0')}`,
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      subtotal,
      total: subtotal - discounted,
      total_discount_amounts: discount ? [{ amount: discounted, discount: discount.id }] : [],
      lines: {
        object: 'list',
        data: invoiceLines,
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
      },
      attempt_count: 0,
      attempted: false,
      billing_reason: reason,
      hosted_invoice_url: `${this.options.publicUrl}/i/${id}`,
      invoice_pdf: `${this.options.publicUrl}/i/${id}/pdf`,
      period_start: start,
      period_end: end,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      status_transitions: { finalized_at: now, paid_at: null },
      livemode: false,
    };
    this.invoices.set(id, invoice);
    return invoice;
  }

  /** One invoice line for a subscription's item (a proration credit is negative). */
  invoiceLine(
    subscription: Subscription,
    amount: number,
    description: string,
    start: number,
    end: number,
    proration: boolean,
  ): InvoiceLine {
    const item = subscription.items.data[0]!;
    return {
      id: stripeId('il'),
      object: 'line_item',
      amount,
      currency: subscription.currency,
      description,
      period: { start, end },
      pricing: {
        type: 'price_details',
        price_details: { price: item.price.id, product: item.price.product },
      },
      quantity: item.quantity,
      parent: {
        type: 'subscription_item_details',
        subscription_item_details: { proration, subscription: subscription.id },
      },
    };
  }

  payInvoice(invoice: Invoice, firstAttempt: boolean): void {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.attempt_count = firstAttempt ? 1 : invoice.attempt_count + 1;
    invoice.attempted = true;
    invoice.status_transitions.paid_at = this.now();
    this.emit('invoice.paid', invoice);
  }

  invoice(id: string): Invoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw noSuchObject('invoice', id, 'invoice');
    return invoice;
  }

  event(id: string): StripeEvent {
    const event = this.events.find((candidate) => candidate.id === id);
    if (!event) throw noSuchObject('event', id);
    return event;
  }
}
