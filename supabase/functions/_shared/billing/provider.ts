import type Stripe from 'stripe';

/**
 * Billing type 1: the calls our functions make to the card provider (Stripe). One interface,
 * one implementation on the official SDK (stripe.ts); the local stack points the same code at
 * its sandbox through STRIPE_API_BASE.
 */
export interface CheckoutRequest {
  customerId: string;
  /** Minor units, lower-case ISO currency as Stripe takes it. */
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
  productName: string;
  trialDays: number;
  successUrl: string;
  cancelUrl: string;
  /** Copied onto the session and the subscription: how events find the account and price. */
  metadata: Record<string, string>;
  /** A Stripe coupon id to take off the first invoice (see ensureCoupon). */
  couponId?: string | null;
  /** Without it a trial starts without a card (Checkout's payment_method_collection). */
  requirePaymentMethod?: boolean;
  /**
   * One-time line items Checkout adds to the first invoice only (a domain bought for more than
   * one year pays the extra years once; the subscription renews yearly).
   */
  oneTimeItems?: { name: string; unitAmount: number }[];
}

/** A plan price as the subscription changes name it: created at Stripe on the way. */
export interface PriceRequest {
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
  productName: string;
}

export interface CouponRequest {
  /** Our coupon code, used as the Stripe coupon's id. */
  id: string;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
}

export interface InvoiceItemRequest {
  subscriptionId: string;
  /** Minor units. */
  amount: number;
  currency: string;
  description: string;
  /** Unix seconds: the period the amount is for. */
  periodStart: number;
  periodEnd: number;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface CardBilling {
  readonly billingType: 1;
  createCustomer(input: {
    email: string | null;
    metadata: Record<string, string>;
  }): Promise<Stripe.Customer>;
  createCheckout(input: CheckoutRequest): Promise<Stripe.Checkout.Session>;
  retrieveCheckout(id: string): Promise<Stripe.Checkout.Session>;
  retrieveSubscription(id: string): Promise<Stripe.Subscription>;
  setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<Stripe.Subscription>;
  cancelNow(id: string): Promise<Stripe.Subscription>;
  retrieveInvoice(id: string): Promise<Stripe.Invoice>;
  /**
   * Moves the subscription to another price now, prorated and invoiced at once; a payment that
   * fails changes nothing (a 402 card error). `metadata` is merged into the subscription's.
   */
  changePrice(
    subscription: Stripe.Subscription,
    price: PriceRequest,
    metadata: Record<string, string>,
  ): Promise<Stripe.Subscription>;
  /**
   * Sets the price later periods are billed at, from the next invoice on: nothing is prorated
   * or charged now (a bought domain's subscription without the names that failed).
   */
  setRenewalPrice(
    subscription: Stripe.Subscription,
    price: PriceRequest,
  ): Promise<Stripe.Subscription>;
  /** The invoice changePrice would bring, computed by Stripe; nothing changes. */
  previewPriceChange(
    subscription: Stripe.Subscription,
    price: PriceRequest,
  ): Promise<Stripe.Invoice>;
  /**
   * Schedules a move to another price at the period end: a subscription schedule whose second
   * phase carries the price and the metadata to set then.
   */
  scheduleChange(
    subscription: Stripe.Subscription,
    price: PriceRequest,
    metadata: Record<string, string>,
  ): Promise<Stripe.SubscriptionSchedule>;
  retrieveSchedule(id: string): Promise<Stripe.SubscriptionSchedule>;
  /** Drops a schedule's future phases; the subscription goes on as it is. */
  releaseSchedule(id: string): Promise<Stripe.SubscriptionSchedule>;
  /**
   * A new subscription on the card the customer already has on file (reactivating an ended
   * plan); a card that fails, or none, is a Stripe error and nothing is created.
   */
  subscribeAgain(
    customerId: string,
    price: PriceRequest,
    metadata: Record<string, string>,
  ): Promise<Stripe.Subscription>;
  /** The Stripe coupon for one of our coupons, created the first time it is used. */
  ensureCoupon(coupon: CouponRequest): Promise<Stripe.Coupon>;
  listInvoices(customerId: string): Promise<Stripe.Invoice[]>;
  /**
   * A one-off amount on the subscription's next invoice, as a line of its own (an invoice item;
   * the metered overage). `idempotencyKey` makes a repeated report answer the first item.
   */
  addInvoiceItem(input: InvoiceItemRequest): Promise<Stripe.InvoiceItem>;
  /** Verifies a webhook's signature on the raw body (300 s tolerance) and parses the event. */
  verifyWebhook(rawBody: string, signature: string | null): Promise<Stripe.Event>;
}
