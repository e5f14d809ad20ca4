import type {
  Adjustment,
  Customer,
  Discount,
  EventEntity,
  Subscription,
  SubscriptionPreview,
  Transaction,
} from '@paddle/paddle-node-sdk';

/**
 * Billing type 2: the calls our functions make to the overlay-checkout provider (Paddle
 * Billing). One interface, one implementation on the official SDK (paddle.ts); the local stack
 * points the same code at its sandbox through PADDLE_API_BASE. Entities come back as the SDK
 * shapes them (camelCase), which is also what app.apply_paddle_* read.
 */
export interface OverlayCheckoutRequest {
  customerId: string;
  /** Minor units, upper-case ISO currency as Paddle takes it. */
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
  productName: string;
  priceName: string;
  trialDays: number;
  /** The page that opens the overlay (Paddle appends `?_ptxn=<transaction id>`). */
  checkoutUrl: string;
  /** Copied by Paddle onto the subscription: how notifications find the account and price. */
  customData: Record<string, string>;
  /** A Paddle discount (see ensureDiscount) taken off this first transaction. */
  discountId?: string | null;
  /** Non-recurring items billed with this first transaction only (minor units each). */
  oneTimeItems?: { name: string; unitAmount: number }[];
}

export interface OneTimeCharge {
  /** Minor units, upper-case ISO currency. */
  amount: number;
  currency: string;
  description: string;
  customData: Record<string, string>;
}

/** A plan price as a subscription's item is changed to it (a non-catalog price, as at checkout). */
export interface OverlayPriceRequest {
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
  productName: string;
  priceName: string;
}

export interface DiscountRequest {
  /** Our coupon code (Paddle takes letters and digits only: others are dropped). */
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
}

/** One line item's part of a refund: Paddle's `details.line_items[].id` and minor units. */
export interface RefundItem {
  itemId: string;
  amount: number;
}

/**
 * How a plan change is billed (Paddle's proration_billing_mode): an upgrade prorated and
 * charged now, or items swapped without a charge (a downgrade at the period end, whose renewal
 * then bills the new price).
 */
export type ChangeBilling = 'prorated_immediately' | 'do_not_bill';

export type CancelEffective = 'next_billing_period' | 'immediately';

export interface OverlayBilling {
  readonly billingType: 2;
  /** The customer for an e-mail (Paddle keeps one per address: an existing one is reused). */
  createCustomer(input: { email: string; customData: Record<string, string> }): Promise<Customer>;
  /** A short-lived token Paddle.js takes to offer the customer's saved payment methods. */
  customerAuthToken(customerId: string): Promise<string>;
  createCheckout(input: OverlayCheckoutRequest): Promise<Transaction>;
  retrieveTransaction(id: string): Promise<Transaction>;
  retrieveSubscription(id: string): Promise<Subscription>;
  cancel(id: string, effective: CancelEffective): Promise<Subscription>;
  /** Drops a scheduled cancellation: the subscription renews again. */
  removeScheduledChange(id: string): Promise<Subscription>;
  /**
   * A one-time charge billed with the subscription's next renewal (non-catalog item; the metered
   * overage). Paddle has no idempotency key: callers record the charge at once.
   */
  chargeOnce(subscriptionId: string, charge: OneTimeCharge): Promise<Subscription>;
  /**
   * Whether a one-time charge whose custom data holds every entry of `customData` waits for the
   * subscription's next renewal (its next transaction): how a caller that may have charged
   * already, its answer lost, finds out before charging again.
   */
  hasPendingCharge(subscriptionId: string, customData: Record<string, string>): Promise<boolean>;
  /**
   * Moves the subscription's item to another price with its custom data; a charge the card
   * refuses changes nothing (Paddle's `prevent_change`, an ApiError).
   */
  changePrice(
    id: string,
    price: OverlayPriceRequest,
    customData: Record<string, string>,
    billing: ChangeBilling,
  ): Promise<Subscription>;
  /** What changePrice would bill, as Paddle computes it; nothing changes. */
  previewPriceChange(
    id: string,
    price: OverlayPriceRequest,
    billing: ChangeBilling,
  ): Promise<SubscriptionPreview>;
  /** Replaces the subscription's custom data (where a pending downgrade waits). */
  setCustomData(id: string, customData: Record<string, string>): Promise<Subscription>;
  /**
   * The transaction that updates the payment method in the overlay: for a past-due subscription
   * its last past-due renewal (paying it restores the subscription), else a zero-value one.
   */
  paymentMethodTransaction(id: string): Promise<Transaction>;
  /**
   * Refunds a completed transaction: a `partial` refund adjustment over its line items (minor
   * units each), or `'full'`, what is left of its grand total. Paddle creates it
   * `pending_approval` and approves or rejects it later (`adjustment.updated`). Paddle has no
   * idempotency key: callers look for their earlier refund first (refunds). Throws
   * RefundPending while another refund of the transaction waits for Paddle's decision.
   */
  refund(transactionId: string, reason: string, items: RefundItem[] | 'full'): Promise<Adjustment>;
  /** The refund adjustments of a transaction, oldest first. */
  refunds(transactionId: string): Promise<Adjustment[]>;
  /** A billed transaction's invoice PDF as Paddle renders it. */
  invoicePdf(id: string): Promise<Uint8Array<ArrayBuffer>>;
  /** The Paddle discount for one of our coupons, created the first time it is used. */
  ensureDiscount(coupon: DiscountRequest): Promise<Discount>;
  /** Verifies a notification's signature on the raw body (5 s tolerance) and parses it. */
  verifyWebhook(rawBody: string, signature: string | null): Promise<EventEntity>;
}

/** Paddle takes no new refund of a transaction while an earlier one waits for its approval. */
export class RefundPending extends Error {
  constructor(transactionId: string) {
    super(`transaction ${transactionId}: an earlier refund waits for Paddle's approval`);
    this.name = 'RefundPending';
  }
}
