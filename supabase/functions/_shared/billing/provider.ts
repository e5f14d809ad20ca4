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
  listInvoices(customerId: string): Promise<Stripe.Invoice[]>;
  /** Verifies a webhook's signature on the raw body (300 s tolerance) and parses the event. */
  verifyWebhook(rawBody: string, signature: string | null): Promise<Stripe.Event>;
}
