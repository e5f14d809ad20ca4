import type { Customer, EventEntity, Subscription, Transaction } from '@paddle/paddle-node-sdk';

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
}

export interface OneTimeCharge {
  /** Minor units, upper-case ISO currency. */
  amount: number;
  currency: string;
  description: string;
  customData: Record<string, string>;
}

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
  /** Verifies a notification's signature on the raw body (5 s tolerance) and parses it. */
  verifyWebhook(rawBody: string, signature: string | null): Promise<EventEntity>;
}
