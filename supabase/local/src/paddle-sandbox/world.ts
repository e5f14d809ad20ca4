import { randomUUID } from 'node:crypto';
import { cardBrand } from '../payment-sandbox/card-form.ts';
import { PaddleError, invalidField, invalidFields, notFound } from './errors.ts';
import { paddleId } from './ids.ts';

/**
 * The sandbox's Paddle Billing account: its entities in memory, shaped as Paddle's API returns
 * them (every field the official SDK reads, snake_case, amounts as strings in minor units,
 * RFC 3339 times with microseconds), and the notifications each change emits. State lives as
 * long as the stack process, like a sandbox account that is wiped on restart.
 */

type Json = Record<string, unknown>;
type CustomData = Record<string, unknown> | null;
export type Interval = 'day' | 'week' | 'month' | 'year';

export interface TimePeriod {
  interval: Interval;
  frequency: number;
}

export interface Customer extends Json {
  id: string;
  name: string | null;
  email: string;
  marketing_consent: boolean;
  status: 'active' | 'archived';
  custom_data: CustomData;
  locale: string;
  created_at: string;
  updated_at: string;
  import_meta: null;
}

export interface Product extends Json {
  id: string;
  name: string;
  type: 'standard' | 'custom';
  description: string | null;
  tax_category: string;
  image_url: string | null;
  custom_data: CustomData;
  status: 'active';
  created_at: string;
  updated_at: string;
  import_meta: null;
}

export interface Price extends Json {
  id: string;
  product_id: string;
  description: string;
  type: 'standard' | 'custom';
  name: string | null;
  billing_cycle: TimePeriod | null;
  trial_period: TimePeriod | null;
  tax_mode: 'account_setting';
  unit_price: { amount: string; currency_code: string };
  unit_price_overrides: [];
  quantity: { minimum: number; maximum: number };
  status: 'active';
  custom_data: CustomData;
  import_meta: null;
  created_at: string;
  updated_at: string;
}

interface Totals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
}

export interface PaymentAttempt extends Json {
  payment_attempt_id: string;
  stored_payment_method_id: string;
  payment_method_id: string;
  amount: string;
  status: 'captured' | 'error';
  error_code: string | null;
  method_details: {
    type: 'card';
    card: {
      type: string;
      last4: string;
      expiry_month: number;
      expiry_year: number;
      cardholder_name: string;
    };
  };
  created_at: string;
  captured_at: string | null;
}

export type TransactionStatus =
  'draft' | 'ready' | 'billed' | 'paid' | 'completed' | 'canceled' | 'past_due';

export type TransactionOrigin =
  'api' | 'subscription_recurring' | 'subscription_update' | 'subscription_payment_method_change';

/** A line's proration: the part of the billing period it is charged or credited for. */
export interface Proration {
  rate: string;
  billing_period: { starts_at: string; ends_at: string };
}

export interface Transaction extends Json {
  id: string;
  status: TransactionStatus;
  customer_id: string | null;
  address_id: string | null;
  business_id: null;
  custom_data: CustomData;
  currency_code: string;
  origin: TransactionOrigin;
  subscription_id: string | null;
  invoice_id: string | null;
  invoice_number: string | null;
  collection_mode: 'automatic';
  discount_id: string | null;
  billing_details: null;
  billing_period: { starts_at: string; ends_at: string } | null;
  items: { price: Price; quantity: number; proration: Proration | null }[];
  details: {
    tax_rates_used: { tax_rate: string; totals: Totals }[];
    totals: Totals & {
      grand_total: string;
      fee: null;
      credit: string;
      credit_to_balance: string;
      balance: string;
      earnings: null;
      currency_code: string;
    };
    adjusted_totals: Totals & {
      grand_total: string;
      fee: string;
      earnings: string;
      currency_code: string;
    };
    payout_totals: null;
    adjusted_payout_totals: null;
    line_items: {
      id: string;
      price_id: string;
      quantity: number;
      proration: Proration | null;
      tax_rate: string;
      unit_totals: Totals;
      totals: Totals;
      product: Product;
    }[];
  };
  payments: PaymentAttempt[];
  checkout: { url: string | null };
  created_at: string;
  updated_at: string;
  billed_at: string | null;
  revised_at: null;
}

export interface Discount extends Json {
  id: string;
  status: 'active' | 'archived';
  description: string;
  enabled_for_checkout: boolean;
  code: string | null;
  type: 'percentage' | 'flat';
  /** A percentage (`"10"`, `"12.5"`) or, for flat ones, minor units. */
  amount: string;
  currency_code: string | null;
  recur: boolean;
  maximum_recurring_intervals: null;
  usage_limit: null;
  restrict_to: null;
  expires_at: null;
  custom_data: CustomData;
  times_used: number;
  created_at: string;
  updated_at: string;
  import_meta: null;
}

/** What a discount takes off a subtotal (minor units), never more than the subtotal. */
export function discountAmount(discount: Discount, subtotal: number): number {
  const off =
    discount.type === 'percentage'
      ? Math.round((subtotal * Number(discount.amount)) / 100)
      : Number(discount.amount);
  return Math.min(off, subtotal);
}

export type SubscriptionStatus = 'active' | 'canceled' | 'past_due' | 'paused' | 'trialing';

export interface ScheduledChange {
  action: 'cancel' | 'pause' | 'resume';
  effective_at: string;
  resume_at: string | null;
}

export interface SubscriptionItem extends Json {
  status: 'active' | 'inactive' | 'trialing';
  quantity: number;
  recurring: boolean;
  created_at: string;
  updated_at: string;
  previously_billed_at: string | null;
  next_billed_at: string | null;
  trial_dates: { starts_at: string; ends_at: string } | null;
  price: Price;
  product: Product;
}

export interface Subscription extends Json {
  id: string;
  status: SubscriptionStatus;
  customer_id: string;
  address_id: string;
  business_id: null;
  currency_code: string;
  created_at: string;
  updated_at: string;
  started_at: string;
  first_billed_at: string | null;
  next_billed_at: string | null;
  paused_at: string | null;
  canceled_at: string | null;
  discount: null;
  collection_mode: 'automatic';
  billing_details: null;
  current_billing_period: { starts_at: string; ends_at: string } | null;
  billing_cycle: TimePeriod;
  scheduled_change: ScheduledChange | null;
  management_urls: { update_payment_method: string | null; cancel: string };
  items: SubscriptionItem[];
  custom_data: CustomData;
  import_meta: null;
}

/** A notification as delivered to a webhook destination (and listed by GET /events). */
export interface PaddleEvent extends Json {
  event_id: string;
  event_type: string;
  occurred_at: string;
  notification_id: string;
  data: Json;
}

export interface CardPayment {
  number: string;
  expMonth: number;
  expYear: number;
  cardholderName: string;
}

export interface CheckoutDetails {
  email: string;
  countryCode: string;
  postalCode: string;
}

const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];

/** `start` plus `count` intervals, in UTC calendar terms as Paddle bills. */
export function addPeriod(start: Date, period: TimePeriod): Date {
  const date = new Date(start);
  const count = period.frequency;
  if (period.interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (period.interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (period.interval === 'month') date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCFullYear(date.getUTCFullYear() + count);
  return date;
}

// --- request reading ---------------------------------------------------------------------

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(body: Json, field: string, path = field): string | null | undefined {
  const value = body[field];
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw invalidField(path, 'must be a string');
  return value;
}

function requiredString(body: Json, field: string, path = field): string {
  const value = optionalString(body, field, path);
  if (value === undefined || value === null || value === '')
    throw invalidField(path, 'is required');
  return value;
}

function customDataOf(body: Json, path = 'custom_data'): CustomData | undefined {
  const value = body.custom_data;
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isObject(value)) throw invalidField(path, 'must be an object or null');
  return value;
}

function periodOf(value: unknown, path: string): TimePeriod | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw invalidField(path, 'must be an object');
  const interval = value.interval as Interval;
  if (!INTERVALS.includes(interval))
    throw invalidField(`${path}.interval`, 'must be one of day, week, month, year');
  const frequency = value.frequency;
  if (typeof frequency !== 'number' || !Number.isInteger(frequency) || frequency < 1)
    throw invalidField(`${path}.frequency`, 'must be an integer of 1 or more');
  return { interval, frequency };
}

function moneyOf(value: unknown, path: string): { amount: string; currency_code: string } {
  if (!isObject(value)) throw invalidField(path, 'is required');
  const amount = value.amount;
  if (typeof amount !== 'string' || !/^\d+$/.test(amount))
    throw invalidField(`${path}.amount`, 'must be a string of digits (lowest denomination)');
  const currency = value.currency_code;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    throw invalidField(`${path}.currency_code`, 'must be a supported ISO 4217 currency code');
  return { amount, currency_code: currency };
}

export interface PaddleWorldOptions {
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  /** Where management links and payment links point by default. */
  publicUrl: string;
  emit: (event: PaddleEvent) => void;
}

export class PaddleWorld {
  readonly customers = new Map<string, Customer>();
  readonly products = new Map<string, Product>();
  readonly prices = new Map<string, Price>();
  readonly transactions = new Map<string, Transaction>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly addresses = new Map<
    string,
    { id: string; customer_id: string; country_code: string; postal_code: string }
  >();
  readonly discounts = new Map<string, Discount>();
  /** Each customer's card on file: the last one a checkout captured. */
  readonly savedCards = new Map<string, CardPayment>();
  /** Customers whose saved card now declines (a card that went bad; a sandbox control). */
  readonly decliningCustomers = new Set<string>();
  readonly events: PaddleEvent[] = [];
  private lastMicros = 0;
  private invoiceCount = 0;

  constructor(private readonly options: PaddleWorldOptions) {}

  nowMs(): number {
    return this.options.now?.() ?? Date.now();
  }

  /**
   * The current time as Paddle writes it (microseconds, `Z`), strictly later than the last one
   * handed out: every change moves an entity's `updated_at` forward, which is what our webhook
   * function orders by.
   */
  stamp(): string {
    const micros = Math.max(this.nowMs() * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    const ms = Math.floor(micros / 1000);
    return `${new Date(ms).toISOString().slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
  }

  emit(type: string, data: Json, at: string): void {
    const event: PaddleEvent = {
      event_id: paddleId('evt', this.nowMs()),
      event_type: type,
      occurred_at: at,
      notification_id: paddleId('ntf', this.nowMs()),
      data: structuredClone(data),
    };
    this.events.push(event);
    this.options.emit(event);
  }

  // --- customers ---------------------------------------------------------------------------

  createCustomer(body: Json): Customer {
    const email = requiredString(body, 'email');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      throw invalidField('email', 'must be a valid email address');
    const taken = [...this.customers.values()].find((customer) => customer.email === email);
    if (taken)
      throw new PaddleError(
        409,
        'customer_already_exists',
        `customer email conflicts with customer of id ${taken.id}`,
        undefined,
        'request_error',
        'customers',
      );
    const at = this.stamp();
    const customer: Customer = {
      id: paddleId('ctm', this.nowMs()),
      name: optionalString(body, 'name') ?? null,
      email,
      marketing_consent: false,
      status: 'active',
      custom_data: customDataOf(body) ?? null,
      locale: optionalString(body, 'locale') ?? 'en',
      created_at: at,
      updated_at: at,
      import_meta: null,
    };
    this.customers.set(customer.id, customer);
    this.emit('customer.created', customer, at);
    return customer;
  }

  customer(id: string): Customer {
    const customer = this.customers.get(id);
    if (!customer) throw notFound(id);
    return customer;
  }

  /** A short-lived token Paddle.js takes to show a customer's saved payment methods. */
  customerAuthToken(id: string): { customer_auth_token: string; expires_at: string } {
    this.customer(id);
    return {
      customer_auth_token: `pca_${paddleId('tok', this.nowMs()).slice(4)}${randomUUID().replaceAll('-', '')}`,
      expires_at: new Date(this.nowMs() + 30 * 60_000).toISOString(),
    };
  }

  // --- products and prices -----------------------------------------------------------------

  createProduct(body: Json, type: Product['type'] = 'standard'): Product {
    const at = this.stamp();
    const product: Product = {
      id: paddleId('pro', this.nowMs()),
      name: requiredString(body, 'name'),
      type,
      description: optionalString(body, 'description') ?? null,
      tax_category: optionalString(body, 'tax_category') ?? 'standard',
      image_url: optionalString(body, 'image_url') ?? null,
      custom_data: customDataOf(body) ?? null,
      status: 'active',
      created_at: at,
      updated_at: at,
      import_meta: null,
    };
    this.products.set(product.id, product);
    return product;
  }

  product(id: string): Product {
    const product = this.products.get(id);
    if (!product) throw notFound(id);
    return product;
  }

  /** A catalog price (POST /prices), or a non-catalog one made inside a transaction. */
  createPrice(body: Json, path = '', type: Price['type'] = 'standard'): Price {
    const productId =
      type === 'custom' && isObject(body.product)
        ? this.createProduct(body.product, 'custom').id
        : requiredString(body, 'product_id', `${path}product_id`);
    this.product(productId);
    const at = this.stamp();
    const price: Price = {
      id: paddleId('pri', this.nowMs()),
      product_id: productId,
      description: requiredString(body, 'description', `${path}description`),
      type,
      name: optionalString(body, 'name', `${path}name`) ?? null,
      billing_cycle: periodOf(body.billing_cycle, `${path}billing_cycle`),
      trial_period: periodOf(body.trial_period, `${path}trial_period`),
      tax_mode: 'account_setting',
      unit_price: moneyOf(body.unit_price, `${path}unit_price`),
      unit_price_overrides: [],
      quantity: { minimum: 1, maximum: 100 },
      status: 'active',
      custom_data: customDataOf(body, `${path}custom_data`) ?? null,
      import_meta: null,
      created_at: at,
      updated_at: at,
    };
    this.prices.set(price.id, price);
    return price;
  }

  price(id: string): Price {
    const price = this.prices.get(id);
    if (!price) throw notFound(id);
    return price;
  }

  // --- transactions ------------------------------------------------------------------------

  itemsOf(value: unknown): Transaction['items'] {
    if (!Array.isArray(value) || value.length === 0)
      throw invalidField('items', 'must contain at least one item');
    return value.map((item: unknown, index) => {
      const path = `items[${index}]`;
      if (!isObject(item)) throw invalidField(path, 'must be an object');
      const quantity = item.quantity ?? 1;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1)
        throw invalidField(`${path}.quantity`, 'must be an integer of 1 or more');
      let price: Price;
      if (typeof item.price_id === 'string') price = this.price(item.price_id);
      else if (isObject(item.price))
        price = this.createPrice(item.price, `${path}.price.`, 'custom');
      else throw invalidField(path, 'needs price_id or price');
      return { price, quantity, proration: null };
    });
  }

  /**
   * A transaction's totals. Each line costs its price times its quantity (nothing during a
   * trial), or the amount given for it (a proration); a discount comes off the subtotal.
   */
  detailsOf(
    items: Transaction['items'],
    currency: string,
    options: { amounts?: number[]; discount?: Discount | null } = {},
  ): Transaction['details'] {
    const gross = items.map(
      (item, index) =>
        options.amounts?.[index] ??
        // A trial is free: the first charge comes when it ends.
        (item.price.trial_period ? 0 : Number(item.price.unit_price.amount) * item.quantity),
    );
    const subtotal = gross.reduce((sum, amount) => sum + amount, 0);
    const off = options.discount ? discountAmount(options.discount, subtotal) : 0;
    // The discount is shared over the lines in proportion, the last line taking the rounding.
    let left = off;
    const lineItems = items.map((item, index) => {
      const share =
        index === items.length - 1
          ? left
          : subtotal === 0
            ? 0
            : Math.round((off * gross[index]!) / subtotal);
      left -= share;
      const totals = {
        subtotal: String(gross[index]!),
        discount: String(share),
        tax: '0',
        total: String(gross[index]! - share),
      };
      return {
        id: paddleId('txnitm', this.nowMs()),
        price_id: item.price.id,
        quantity: item.quantity,
        proration: item.proration,
        tax_rate: '0',
        unit_totals: {
          ...totals,
          subtotal: String(Math.round(gross[index]! / item.quantity)),
          total: String(Math.round((gross[index]! - share) / item.quantity)),
        },
        totals,
        product: this.product(item.price.product_id),
      };
    });
    const total = subtotal - off;
    const money = {
      subtotal: String(subtotal),
      discount: String(off),
      tax: '0',
      total: String(total),
    };
    return {
      tax_rates_used: [{ tax_rate: '0', totals: money }],
      totals: {
        ...money,
        grand_total: String(total),
        fee: null,
        credit: '0',
        credit_to_balance: '0',
        balance: String(total),
        earnings: null,
        currency_code: currency,
      },
      adjusted_totals: {
        ...money,
        grand_total: String(total),
        fee: '0',
        earnings: '0',
        currency_code: currency,
      },
      payout_totals: null,
      adjusted_payout_totals: null,
      line_items: lineItems,
    };
  }

  // --- discounts ---------------------------------------------------------------------------

  /** POST /discounts: a percentage or flat amount off, optionally under a checkout code. */
  createDiscount(body: Json): Discount {
    const type = requiredString(body, 'type');
    if (type !== 'percentage' && type !== 'flat')
      throw invalidField('type', 'must be one of percentage, flat');
    const amount = requiredString(body, 'amount');
    if (type === 'percentage' && !/^(100(\.0+)?|\d{1,2}(\.\d+)?)$/.test(amount))
      throw invalidField('amount', 'must be a percentage between 0.01 and 100');
    if (type === 'flat' && !/^\d+$/.test(amount))
      throw invalidField('amount', 'must be a string of digits (lowest denomination)');
    const currency = optionalString(body, 'currency_code') ?? null;
    if (type === 'flat' && !currency)
      throw invalidField('currency_code', 'is required for flat discounts');
    const code = optionalString(body, 'code') ?? null;
    if (code !== null && !/^[a-zA-Z0-9]{1,32}$/.test(code))
      throw invalidField('code', 'must be 1 to 32 letters and digits');
    if (code !== null && [...this.discounts.values()].some((d) => d.code === code))
      throw new PaddleError(
        409,
        'discount_code_conflict',
        `discount code ${code} is already used by another discount`,
        undefined,
        'request_error',
        'discounts',
      );
    const at = this.stamp();
    const discount: Discount = {
      id: paddleId('dsc', this.nowMs()),
      status: 'active',
      description: requiredString(body, 'description'),
      enabled_for_checkout: body.enabled_for_checkout === true,
      code,
      type,
      amount,
      currency_code: currency,
      recur: body.recur === true,
      maximum_recurring_intervals: null,
      usage_limit: null,
      restrict_to: null,
      expires_at: null,
      custom_data: customDataOf(body) ?? null,
      times_used: 0,
      created_at: at,
      updated_at: at,
      import_meta: null,
    };
    this.discounts.set(discount.id, discount);
    this.emit('discount.created', discount, at);
    return discount;
  }

  discount(id: string): Discount {
    const discount = this.discounts.get(id);
    if (!discount) throw notFound(id);
    return discount;
  }

  // --- payment methods ---------------------------------------------------------------------

  /** The card a customer last paid with, which renewals and upgrades charge. */
  savedCard(customerId: string): CardPayment | null {
    return this.savedCards.get(customerId) ?? null;
  }

  /**
   * Charges the customer's saved card for a transaction: a payment attempt, captured or refused
   * (no card on file, or a card set to decline).
   */
  chargeSaved(transaction: Transaction, at: string): PaymentAttempt | null {
    const card = transaction.customer_id ? this.savedCard(transaction.customer_id) : null;
    if (!card) return null;
    const declines = this.decliningCustomers.has(transaction.customer_id!);
    return this.attempt(
      transaction,
      card,
      declines ? { status: 'error', errorCode: 'declined' } : { status: 'captured' },
      at,
    );
  }

  /** The next invoice number, as Paddle numbers a transaction once it is billed. */
  invoiceNumber(): string {
    return `${new Date(this.nowMs()).getUTCFullYear()}-${String(++this.invoiceCount).padStart(5, '0')}`;
  }

  /** A transaction Paddle makes itself (renewals, upgrades, payment-method updates). */
  createSubscriptionTransaction(
    subscription: Subscription,
    origin: TransactionOrigin,
    items: Transaction['items'],
    options: {
      amounts?: number[];
      billingPeriod: { starts_at: string; ends_at: string } | null;
      status: TransactionStatus;
      checkoutUrl?: string | null;
    },
  ): Transaction {
    const id = paddleId('txn', this.nowMs());
    const at = this.stamp();
    const billed = options.status === 'billed';
    const transaction: Transaction = {
      id,
      status: options.status,
      customer_id: subscription.customer_id,
      address_id: subscription.address_id,
      business_id: null,
      custom_data: subscription.custom_data,
      currency_code: subscription.currency_code,
      origin,
      subscription_id: subscription.id,
      invoice_id: billed ? paddleId('inv', this.nowMs()) : null,
      invoice_number: billed ? this.invoiceNumber() : null,
      collection_mode: 'automatic',
      discount_id: null,
      billing_details: null,
      billing_period: options.billingPeriod,
      items,
      details: this.detailsOf(items, subscription.currency_code, { amounts: options.amounts }),
      payments: [],
      checkout: {
        url: options.checkoutUrl
          ? `${options.checkoutUrl}${options.checkoutUrl.includes('?') ? '&' : '?'}_ptxn=${id}`
          : null,
      },
      created_at: at,
      updated_at: at,
      billed_at: billed ? at : null,
      revised_at: null,
    };
    this.transactions.set(id, transaction);
    this.emit('transaction.created', transaction, at);
    if (billed) this.emit('transaction.billed', transaction, at);
    return transaction;
  }

  createTransaction(body: Json, defaultPaymentLink: string | null): Transaction {
    const customerId = optionalString(body, 'customer_id') ?? null;
    if (customerId) this.customer(customerId);
    const items = this.itemsOf(body.items);
    const currency =
      optionalString(body, 'currency_code') ?? items[0]!.price.unit_price.currency_code;
    if (items.some((item) => item.price.unit_price.currency_code !== currency))
      throw invalidField('items', 'every price must be in the transaction currency');
    const checkout = isObject(body.checkout)
      ? optionalString(body.checkout, 'url', 'checkout.url')
      : null;
    const link = checkout ?? defaultPaymentLink;
    const discountId = optionalString(body, 'discount_id') ?? null;
    const discount = discountId ? this.discount(discountId) : null;
    if (discount && discount.type === 'flat' && discount.currency_code !== currency)
      throw invalidField('discount_id', 'the discount currency must match the transaction');
    const id = paddleId('txn', this.nowMs());
    const at = this.stamp();
    const transaction: Transaction = {
      id,
      status: 'draft',
      customer_id: customerId,
      address_id: null,
      business_id: null,
      custom_data: customDataOf(body) ?? null,
      currency_code: currency,
      origin: 'api',
      subscription_id: null,
      invoice_id: null,
      invoice_number: null,
      collection_mode: 'automatic',
      discount_id: discount?.id ?? null,
      billing_details: null,
      billing_period: null,
      items,
      details: this.detailsOf(items, currency, { discount }),
      payments: [],
      checkout: { url: link ? `${link}${link.includes('?') ? '&' : '?'}_ptxn=${id}` : null },
      created_at: at,
      updated_at: at,
      billed_at: null,
      revised_at: null,
    };
    this.transactions.set(id, transaction);
    this.emit('transaction.created', transaction, at);
    return transaction;
  }

  transaction(id: string): Transaction {
    const transaction = this.transactions.get(id);
    if (!transaction) throw notFound(id);
    return transaction;
  }

  /** Whether the overlay may still take a payment for this transaction. */
  isPayable(transaction: Transaction): boolean {
    return (
      transaction.status === 'draft' ||
      transaction.status === 'ready' ||
      transaction.status === 'past_due'
    );
  }

  attempt(
    transaction: Transaction,
    card: CardPayment,
    outcome: { status: 'captured' } | { status: 'error'; errorCode: string },
    at: string,
  ): PaymentAttempt {
    const attempt: PaymentAttempt = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: paddleId('paymtd', this.nowMs()),
      amount: transaction.details.totals.total,
      status: outcome.status,
      error_code: outcome.status === 'error' ? outcome.errorCode : null,
      method_details: {
        type: 'card',
        card: {
          type: cardBrand(card.number),
          last4: card.number.slice(-4),
          expiry_month: card.expMonth,
          expiry_year: card.expYear,
          cardholder_name: card.cardholderName,
        },
      },
      created_at: at,
      captured_at: outcome.status === 'captured' ? at : null,
    };
    transaction.payments.unshift(attempt);
    return attempt;
  }

  /** The checkout's customer and address: the transaction's own, or made from the form. */
  private settleCustomer(transaction: Transaction, details: CheckoutDetails): void {
    if (!transaction.customer_id) {
      const existing = [...this.customers.values()].find((c) => c.email === details.email);
      transaction.customer_id = existing?.id ?? this.createCustomer({ email: details.email }).id;
    }
    if (!transaction.address_id) {
      const address = {
        id: paddleId('add', this.nowMs()),
        customer_id: transaction.customer_id,
        country_code: details.countryCode,
        postal_code: details.postalCode,
      };
      this.addresses.set(address.id, address);
      transaction.address_id = address.id;
    }
  }

  /** A payment the card refused: recorded on the transaction, which stays open for another try. */
  failPayment(
    id: string,
    details: CheckoutDetails,
    card: CardPayment,
    errorCode: string,
  ): Transaction {
    const transaction = this.transaction(id);
    this.settleCustomer(transaction, details);
    const at = this.stamp();
    // A past-due renewal stays past due; a new checkout stays open for another try.
    if (transaction.status !== 'past_due') transaction.status = 'ready';
    this.attempt(transaction, card, { status: 'error', errorCode }, at);
    transaction.updated_at = at;
    this.emit('transaction.payment_failed', transaction, at);
    return transaction;
  }

  /**
   * A paid checkout: the transaction completes and, for recurring prices, Paddle creates the
   * subscription with the transaction's custom data. Events in Paddle's order.
   */
  completeCheckout(id: string, details: CheckoutDetails, card: CardPayment): Transaction {
    const transaction = this.transaction(id);
    if (!this.isPayable(transaction))
      throw new PaddleError(
        400,
        'transaction_immutable',
        `transaction ${id} cannot be paid`,
        undefined,
        'request_error',
        'transactions',
      );
    this.settleCustomer(transaction, details);
    let at = this.stamp();
    this.attempt(transaction, card, { status: 'captured' }, at);
    transaction.status = 'paid';
    transaction.billed_at = at;
    transaction.invoice_id ??= paddleId('inv', this.nowMs());
    transaction.invoice_number ??= this.invoiceNumber();
    transaction.updated_at = at;
    this.emit('transaction.paid', transaction, at);
    // The card the customer just paid with is the one on file from now on.
    this.savedCards.set(transaction.customer_id!, card);
    this.decliningCustomers.delete(transaction.customer_id!);
    if (transaction.discount_id) this.discount(transaction.discount_id).times_used++;

    const recurring = transaction.items.filter((item) => item.price.billing_cycle);
    if (transaction.subscription_id) {
      // A past-due renewal paid, or a payment-method update: the subscription is active again.
      const subscription = this.subscription(transaction.subscription_id);
      if (subscription.status === 'past_due') {
        const changed = this.stamp();
        subscription.status = 'active';
        subscription.updated_at = changed;
        for (const item of subscription.items) item.status = 'active';
        this.emit('subscription.updated', subscription, changed);
      }
    } else if (recurring.length > 0) {
      const subscription = this.createSubscription(transaction, recurring);
      transaction.subscription_id = subscription.id;
      transaction.billing_period = subscription.current_billing_period;
    }
    at = this.stamp();
    transaction.status = 'completed';
    transaction.updated_at = at;
    this.emit('transaction.completed', transaction, at);
    return transaction;
  }

  private createSubscription(transaction: Transaction, items: Transaction['items']): Subscription {
    const at = this.stamp();
    const start = new Date(this.nowMs());
    const cycle = items[0]!.price.billing_cycle!;
    const trial = items[0]!.price.trial_period;
    const periodEnd = trial ? addPeriod(start, trial) : addPeriod(start, cycle);
    const period = { starts_at: start.toISOString(), ends_at: periodEnd.toISOString() };
    const id = paddleId('sub', this.nowMs());
    const subscription: Subscription = {
      id,
      status: trial ? 'trialing' : 'active',
      customer_id: transaction.customer_id!,
      address_id: transaction.address_id!,
      business_id: null,
      currency_code: transaction.currency_code,
      created_at: at,
      updated_at: at,
      started_at: period.starts_at,
      first_billed_at: trial ? null : period.starts_at,
      next_billed_at: period.ends_at,
      paused_at: null,
      canceled_at: null,
      discount: null,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: period,
      billing_cycle: cycle,
      scheduled_change: null,
      management_urls: {
        update_payment_method: `${this.options.publicUrl}/subscriptions/${id}/update-payment-method`,
        cancel: `${this.options.publicUrl}/subscriptions/${id}/cancel`,
      },
      items: items.map((item) => ({
        status: trial ? 'trialing' : 'active',
        quantity: item.quantity,
        recurring: true,
        created_at: at,
        updated_at: at,
        previously_billed_at: trial ? null : period.starts_at,
        next_billed_at: period.ends_at,
        trial_dates: trial ? { ...period } : null,
        price: item.price,
        product: this.product(item.price.product_id),
      })),
      custom_data: transaction.custom_data,
      import_meta: null,
    };
    this.subscriptions.set(id, subscription);
    this.emit('subscription.created', subscription, at);
    this.emit(trial ? 'subscription.trialing' : 'subscription.activated', subscription, at);
    return subscription;
  }

  // --- subscriptions -----------------------------------------------------------------------

  subscription(id: string): Subscription {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw notFound(id);
    return subscription;
  }

  private refuseIfCanceled(subscription: Subscription): void {
    if (subscription.status === 'canceled')
      throw new PaddleError(
        400,
        'subscription_update_when_canceled',
        'cannot update a subscription that is canceled',
        undefined,
        'request_error',
        'subscriptions',
      );
  }

  /** POST /subscriptions/{id}/cancel: at the period's end (a scheduled change) or now. */
  cancelSubscription(id: string, body: Json): Subscription {
    const subscription = this.subscription(id);
    this.refuseIfCanceled(subscription);
    const effective = optionalString(body, 'effective_from') ?? 'next_billing_period';
    if (effective !== 'next_billing_period' && effective !== 'immediately')
      throw invalidField('effective_from', 'must be next_billing_period or immediately');
    const at = this.stamp();
    subscription.updated_at = at;
    if (effective === 'immediately' || !subscription.current_billing_period) {
      subscription.status = 'canceled';
      subscription.canceled_at = at;
      subscription.current_billing_period = null;
      subscription.next_billed_at = null;
      subscription.scheduled_change = null;
      for (const item of subscription.items) {
        item.status = 'inactive';
        item.next_billed_at = null;
        item.updated_at = at;
      }
      this.emit('subscription.updated', subscription, at);
      this.emit('subscription.canceled', subscription, at);
    } else {
      subscription.scheduled_change = {
        action: 'cancel',
        effective_at: subscription.current_billing_period.ends_at,
        resume_at: null,
      };
      this.emit('subscription.updated', subscription, at);
    }
    return subscription;
  }

  /**
   * PATCH /subscriptions/{id} without items (those are the lifecycle's, lifecycle.ts):
   * `scheduled_change: null` drops a scheduled cancel (how a subscription set to cancel is
   * kept), `custom_data` replaces it.
   */
  updateSubscription(id: string, body: Json): Subscription {
    const subscription = this.subscription(id);
    this.refuseIfCanceled(subscription);
    const known = new Set(['scheduled_change', 'custom_data']);
    const unknown = Object.keys(body).filter((key) => !known.has(key));
    if (unknown.length > 0)
      throw invalidFields(
        unknown.map((field) => ({ field, message: 'is not supported by this sandbox' })),
      );
    if ('scheduled_change' in body) {
      if (body.scheduled_change !== null)
        throw invalidField('scheduled_change', 'can only be set to null');
      subscription.scheduled_change = null;
    }
    const customData = customDataOf(body);
    if (customData !== undefined) subscription.custom_data = customData;
    const at = this.stamp();
    subscription.updated_at = at;
    this.emit('subscription.updated', subscription, at);
    return subscription;
  }
}
