import { cardBrand } from './cards.ts';
import { StripeError, invalidParam, missingParam, noSuchObject } from './errors.ts';
import { obj, str, type FormObject } from './form.ts';
import { stripeId } from './ids.ts';
import {
  metadataOf,
  type Customer,
  type Invoice,
  type StripeWorld,
  type Subscription,
} from './world.ts';

/**
 * The sandbox's money-after-checkout objects, beside the world's customers, subscriptions and
 * invoices: payment methods (cards saved to a customer), Checkout Sessions in `setup` mode with
 * their SetupIntents (how a customer replaces the card their plan is paid with), the payments
 * of paid invoices (InvoicePayment → PaymentIntent → Charge), refunds, paying an open invoice
 * (the hosted invoice page), and tax ids / billing addresses on customers. Shapes and event
 * types are Stripe's (API reference: payment_methods, setup_intents, invoice_payments,
 * refunds, customer tax_ids).
 */

type Json = Record<string, unknown>;

export interface Card {
  number: string;
  expMonth: number;
  expYear: number;
}

export interface PaymentMethod extends Json {
  id: string;
  object: 'payment_method';
  type: 'card';
  created: number;
  customer: string | null;
  billing_details: { name: string | null; email: string | null; address: Json };
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    country: string;
    funding: 'credit';
  };
  livemode: false;
}

export interface SetupSession extends Json {
  id: string;
  object: 'checkout.session';
  created: number;
  expires_at: number;
  mode: 'setup';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'no_payment_required';
  customer: string;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  metadata: Record<string, string>;
  setup_intent: string | null;
  subscription: null;
  invoice: null;
  livemode: false;
}

export interface InvoicePayment extends Json {
  id: string;
  object: 'invoice_payment';
  created: number;
  invoice: string;
  is_default: true;
  amount_paid: number;
  amount_requested: number;
  currency: string;
  status: 'paid';
  payment: { type: 'payment_intent'; payment_intent: string };
  status_transitions: { paid_at: number; canceled_at: null };
  livemode: false;
}

export interface Charge extends Json {
  id: string;
  object: 'charge';
  created: number;
  amount: number;
  amount_refunded: number;
  currency: string;
  customer: string;
  payment_intent: string;
  payment_method: string | null;
  paid: true;
  refunded: boolean;
  status: 'succeeded';
  livemode: false;
}

/** Stripe's test cards are issued in the US; the sandbox says so for every card. */
const CARD_COUNTRY = 'US';
const TAX_ID_TYPES = new Set(['eu_vat', 'gb_vat', 'us_ein', 'ch_vat', 'no_vat', 'au_abn', 'ca_bn']);

export class StripeDocuments {
  readonly paymentMethods = new Map<string, PaymentMethod>();
  readonly setupSessions = new Map<string, SetupSession>();
  readonly invoicePayments = new Map<string, InvoicePayment>();
  readonly charges = new Map<string, Charge>();
  readonly taxIds = new Map<string, Json>();

  constructor(
    private readonly world: StripeWorld,
    private readonly publicUrl: string,
  ) {}

  // --- payment methods -------------------------------------------------------------------

  /** A card the customer entered on a hosted page, saved to them as their default. */
  attachCard(
    customerId: string,
    card: Card,
    name: string | null,
    /** At checkout the subscription is made with it: no update event for it. */
    { quiet = false } = {},
  ): PaymentMethod {
    const customer = this.world.customer(customerId);
    const method: PaymentMethod = {
      id: stripeId('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.world.now(),
      customer: customer.id,
      billing_details: { name, email: customer.email, address: {} },
      card: {
        brand: cardBrand(card.number),
        last4: card.number.slice(-4),
        exp_month: card.expMonth,
        exp_year: card.expYear,
        country: CARD_COUNTRY,
        funding: 'credit',
      },
      livemode: false,
    };
    this.paymentMethods.set(method.id, method);
    this.world.emit('payment_method.attached', method);
    const previous = { invoice_settings: { ...customer.invoice_settings } };
    customer.invoice_settings = { default_payment_method: method.id };
    this.world.emit('customer.updated', customer, previous);
    for (const subscription of this.world.subscriptions.values()) {
      if (subscription.customer !== customer.id || subscription.status === 'canceled') continue;
      const before = { default_payment_method: subscription.default_payment_method ?? null };
      subscription.default_payment_method = method.id;
      if (!quiet) this.world.emit('customer.subscription.updated', subscription, before);
    }
    return method;
  }

  paymentMethod(id: string): PaymentMethod {
    const method = this.paymentMethods.get(id);
    if (!method) throw noSuchObject('payment_method', id);
    return method;
  }

  customerPaymentMethods(customerId: string): PaymentMethod[] {
    this.world.customer(customerId);
    return [...this.paymentMethods.values()].filter((method) => method.customer === customerId);
  }

  // --- setup-mode checkout ---------------------------------------------------------------

  createSetupSession(form: FormObject): SetupSession {
    const customer = str(form.customer);
    if (!customer) throw missingParam('customer');
    this.world.customer(customer);
    const successUrl = str(form.success_url);
    if (!successUrl) throw missingParam('success_url');
    const now = this.world.now();
    const id = stripeId('cs_test', 58);
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(obj(form.metadata) ?? {}))
      if (typeof value === 'string') metadata[key] = value;
    const session: SetupSession = {
      id,
      object: 'checkout.session',
      created: now,
      expires_at: now + 24 * 3600,
      mode: 'setup',
      status: 'open',
      payment_status: 'no_payment_required',
      customer,
      success_url: successUrl,
      cancel_url: str(form.cancel_url) ?? null,
      url: `${this.publicUrl}/c/setup/${id}`,
      metadata,
      setup_intent: null,
      subscription: null,
      invoice: null,
      livemode: false,
    };
    this.setupSessions.set(id, session);
    return session;
  }

  setupSession(id: string): SetupSession | undefined {
    const session = this.setupSessions.get(id);
    if (session?.status === 'open' && session.expires_at <= this.world.now()) {
      session.status = 'expired';
      session.url = null;
    }
    return session;
  }

  completeSetup(id: string, card: Card, name: string | null): SetupSession {
    const session = this.setupSession(id);
    if (!session || session.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        'This Checkout Session is no longer active.',
      );
    const method = this.attachCard(session.customer, card, name);
    const intent = {
      id: stripeId('seti'),
      object: 'setup_intent',
      created: this.world.now(),
      customer: session.customer,
      payment_method: method.id,
      status: 'succeeded',
      usage: 'off_session',
      livemode: false,
    };
    this.world.emit('setup_intent.succeeded', intent);
    session.status = 'complete';
    session.setup_intent = intent.id;
    session.url = null;
    this.world.emit('checkout.session.completed', session);
    return session;
  }

  // --- invoice payments, charges, refunds ------------------------------------------------

  /**
   * Records how a paid invoice was paid (the world marks invoices paid; this adds the
   * PaymentIntent and Charge behind it), once per invoice.
   */
  recordPayment(invoice: Invoice): InvoicePayment | undefined {
    if (invoice.status !== 'paid' || invoice.amount_paid === 0) return undefined;
    const existing = [...this.invoicePayments.values()].find((p) => p.invoice === invoice.id);
    if (existing) return existing;
    const now = this.world.now();
    const customer = this.world.customers.get(invoice.customer);
    const paymentIntent = stripeId('pi');
    const charge: Charge = {
      id: stripeId('ch'),
      object: 'charge',
      created: now,
      amount: invoice.amount_paid,
      amount_refunded: 0,
      currency: invoice.currency,
      customer: invoice.customer,
      payment_intent: paymentIntent,
      payment_method: customer?.invoice_settings.default_payment_method ?? null,
      paid: true,
      refunded: false,
      status: 'succeeded',
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    const payment: InvoicePayment = {
      id: stripeId('inpay'),
      object: 'invoice_payment',
      created: now,
      invoice: invoice.id,
      is_default: true,
      amount_paid: invoice.amount_paid,
      amount_requested: invoice.amount_due,
      currency: invoice.currency,
      status: 'paid',
      payment: { type: 'payment_intent', payment_intent: paymentIntent },
      status_transitions: { paid_at: now, canceled_at: null },
      livemode: false,
    };
    this.invoicePayments.set(payment.id, payment);
    return payment;
  }

  listInvoicePayments(query: URLSearchParams): InvoicePayment[] {
    const invoice = query.get('invoice');
    const intent = query.get('payment[payment_intent]');
    return [...this.invoicePayments.values()].filter(
      (payment) =>
        (!invoice || payment.invoice === invoice) &&
        (!intent || payment.payment.payment_intent === intent),
    );
  }

  createRefund(form: FormObject): Json {
    const intent = str(form.payment_intent);
    const chargeId = str(form.charge);
    if (!intent && !chargeId) throw missingParam('payment_intent');
    const charge = [...this.charges.values()].find(
      (candidate) => candidate.id === chargeId || candidate.payment_intent === intent,
    );
    if (!charge) throw noSuchObject('payment_intent', intent ?? chargeId ?? '', 'payment_intent');
    const left = charge.amount - charge.amount_refunded;
    if (left === 0)
      throw new StripeError(
        400,
        'invalid_request_error',
        `Charge ${charge.id} has already been refunded.`,
        'charge_already_refunded',
      );
    const amountText = str(form.amount);
    const amount = amountText === undefined ? left : Number(amountText);
    if (!Number.isInteger(amount) || amount < 1)
      throw invalidParam('amount', `Invalid integer: ${amountText ?? ''}`);
    if (amount > left)
      throw new StripeError(
        400,
        'invalid_request_error',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount_too_large',
        'amount',
      );
    const refund = {
      id: stripeId('re'),
      object: 'refund',
      created: this.world.now(),
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: str(form.reason) ?? null,
      status: 'succeeded',
      metadata: metadataOf(form.metadata, 'metadata'),
    };
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.world.emit('refund.created', refund);
    this.world.emit('charge.refunded', charge, previous);
    return refund;
  }

  charge(id: string): Charge {
    const charge = this.charges.get(id);
    if (!charge) throw noSuchObject('charge', id);
    return charge;
  }

  /**
   * The hosted invoice page took a card: the open invoice is paid, and a subscription that
   * fell past due on it moves on to the period it bills, active again (Stripe's behaviour
   * with the default "past due" dunning setting).
   */
  payInvoice(invoiceId: string, card: Card): Invoice {
    const invoice = this.world.invoice(invoiceId);
    if (invoice.status !== 'open')
      throw new StripeError(
        400,
        'invalid_request_error',
        'Invoice is already paid',
        'invoice_not_open',
      );
    const previous = { status: invoice.status, amount_paid: invoice.amount_paid };
    const customer = this.world.customer(invoice.customer);
    if (!customer.invoice_settings.default_payment_method) this.attachCard(customer.id, card, null);
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.attempt_count += 1;
    invoice.attempted = true;
    invoice.status_transitions.paid_at = this.world.now();
    this.recordPayment(invoice);
    this.world.emit('invoice.paid', invoice, previous);
    const subscriptionId = invoice.parent.subscription_details.subscription;
    const subscription: Subscription | undefined = this.world.subscriptions.get(subscriptionId);
    if (subscription && (subscription.status === 'past_due' || subscription.status === 'unpaid')) {
      const item = subscription.items.data[0]!;
      const before = { status: subscription.status, items: structuredClone(subscription.items) };
      item.current_period_start = invoice.period_start;
      item.current_period_end = invoice.period_end;
      subscription.status = 'active';
      this.world.emit('customer.subscription.updated', subscription, before);
    }
    return invoice;
  }

  // --- customers: billing address, tax ids ------------------------------------------------

  updateCustomer(id: string, form: FormObject): Customer {
    const customer = this.world.customer(id);
    const previous: Json = {};
    if (form.name !== undefined) {
      previous.name = customer.name;
      customer.name = str(form.name) || null;
    }
    const address = obj(form.address);
    if (address) {
      previous.address = customer.address ?? null;
      customer.address = Object.fromEntries(
        ['line1', 'line2', 'city', 'postal_code', 'state', 'country'].map((key) => [
          key,
          str(address[key]) || null,
        ]),
      );
    }
    const settings = obj(form.invoice_settings);
    const method = str(settings?.default_payment_method);
    if (method) {
      this.paymentMethod(method);
      previous.invoice_settings = { ...customer.invoice_settings };
      customer.invoice_settings = { default_payment_method: method };
    }
    if (Object.keys(previous).length > 0) this.world.emit('customer.updated', customer, previous);
    return customer;
  }

  createTaxId(customerId: string, form: FormObject): Json {
    this.world.customer(customerId);
    const type = str(form.type);
    const value = str(form.value);
    if (!type) throw missingParam('type');
    if (!value) throw missingParam('value');
    if (!TAX_ID_TYPES.has(type))
      throw invalidParam('type', `Invalid value for type: ${type} is not a supported tax id type.`);
    if (type.endsWith('_vat') && !/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(value.replace(/\s/g, '')))
      throw new StripeError(
        400,
        'invalid_request_error',
        `Invalid value for ${type}.`,
        'tax_id_invalid',
        'value',
      );
    const taxId = {
      id: stripeId('txi'),
      object: 'tax_id',
      created: this.world.now(),
      customer: customerId,
      type,
      value: value.replace(/\s/g, ''),
      // A VAT number starts with its country; other kinds are named after theirs.
      country: type.endsWith('_vat') ? value.slice(0, 2) : type.slice(0, 2).toUpperCase(),
      verification: { status: 'pending', verified_name: null, verified_address: null },
      livemode: false,
    };
    this.taxIds.set(taxId.id, taxId);
    this.world.emit('customer.tax_id.created', taxId);
    return taxId;
  }

  customerTaxIds(customerId: string): Json[] {
    this.world.customer(customerId);
    return [...this.taxIds.values()].filter((taxId) => taxId.customer === customerId);
  }

  deleteTaxId(customerId: string, id: string): Json {
    const taxId = this.taxIds.get(id);
    if (!taxId || taxId.customer !== customerId) throw noSuchObject('tax_id', id);
    this.taxIds.delete(id);
    this.world.emit('customer.tax_id.deleted', taxId);
    return { id, object: 'tax_id', deleted: true };
  }
}
