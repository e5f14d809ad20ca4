import Stripe from 'stripe';
import { requireEnv } from '../env.ts';
import type { CardBilling, CheckoutRequest, PriceRequest } from './provider.ts';

/** Stripe's default: a signature older than this (seconds) is refused as a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The SDK aimed at STRIPE_API_BASE when set (the local sandbox: its host, port and protocol,
 * and the path it is mounted under, which the SDK has no option for, added by the fetch it is
 * given), else at api.stripe.com.
 */
export function stripeSdk(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const base = new URL(apiBase);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new Stripe(secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    httpClient: Stripe.createFetchHttpClient((input, init) => {
      const url = new URL(String(input));
      url.pathname = `${prefix}${url.pathname}`;
      return fetch(url, init);
    }),
  });
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'resource_missing';
}

export function createStripeBilling(stripe: Stripe, webhookSecret: string): CardBilling {
  const crypto = Stripe.createSubtleCryptoProvider();
  const createPrice = (price: PriceRequest) =>
    stripe.prices.create({
      currency: price.currency,
      unit_amount: price.unitAmount,
      recurring: { interval: price.interval },
      product_data: { name: price.productName },
    });
  const itemOf = (subscription: Stripe.Subscription) => {
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${subscription.id} has no item`);
    return item;
  };
  return {
    billingType: 1,
    createCustomer: ({ email, metadata }) =>
      stripe.customers.create({ ...(email ? { email } : {}), metadata }),
    createCheckout: (input: CheckoutRequest) =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: input.unitAmount,
              recurring: { interval: input.interval },
              product_data: { name: input.productName },
            },
          },
          ...(input.oneTimeItems ?? []).map((item) => ({
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: item.unitAmount,
              product_data: { name: item.name },
            },
          })),
        ],
        ...(input.couponId ? { discounts: [{ coupon: input.couponId }] } : {}),
        ...(input.trialDays > 0 && input.requirePaymentMethod === false
          ? { payment_method_collection: 'if_required' as const }
          : {}),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: input.metadata.account_id,
        metadata: input.metadata,
        subscription_data: {
          metadata: input.metadata,
          ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}),
        },
      }),
    retrieveCheckout: (id) => stripe.checkout.sessions.retrieve(id),
    retrieveSubscription: (id) => stripe.subscriptions.retrieve(id),
    setCancelAtPeriodEnd: (id, cancel) =>
      stripe.subscriptions.update(id, { cancel_at_period_end: cancel }),
    cancelNow: (id) => stripe.subscriptions.cancel(id),
    retrieveInvoice: (id) => stripe.invoices.retrieve(id),
    changePrice: async (subscription, price, metadata) => {
      const created = await createPrice(price);
      return stripe.subscriptions.update(subscription.id, {
        items: [{ id: itemOf(subscription).id, price: created.id }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        metadata,
      });
    },
    setRenewalPrice: async (subscription, price) => {
      const created = await createPrice(price);
      return stripe.subscriptions.update(subscription.id, {
        items: [{ id: itemOf(subscription).id, price: created.id }],
        proration_behavior: 'none',
      });
    },
    previewPriceChange: async (subscription, price) => {
      const created = await createPrice(price);
      return stripe.invoices.createPreview({
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: itemOf(subscription).id, price: created.id }],
          proration_behavior: 'always_invoice',
        },
      });
    },
    scheduleChange: async (subscription, price, metadata) => {
      const created = await createPrice(price);
      const schedule = await stripe.subscriptionSchedules.create({
        from_subscription: subscription.id,
      });
      const current = schedule.phases[0]!;
      return stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        phases: [
          {
            start_date: current.start_date,
            end_date: current.end_date,
            items: current.items.map((item) => ({
              price: typeof item.price === 'string' ? item.price : item.price.id,
              quantity: item.quantity ?? 1,
            })),
          },
          {
            items: [{ price: created.id, quantity: 1 }],
            metadata,
            duration: { interval: price.interval, interval_count: 1 },
          },
        ],
      });
    },
    subscribeAgain: async (customerId, price, metadata) => {
      const created = await createPrice(price);
      return stripe.subscriptions.create({
        customer: customerId,
        items: [{ price: created.id, quantity: 1 }],
        metadata,
        payment_behavior: 'error_if_incomplete',
      });
    },
    retrieveSchedule: (id) => stripe.subscriptionSchedules.retrieve(id),
    releaseSchedule: (id) => stripe.subscriptionSchedules.release(id),
    ensureCoupon: async (coupon) => {
      try {
        return await stripe.coupons.retrieve(coupon.id);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      return stripe.coupons.create({
        id: coupon.id,
        duration: 'once',
        ...(coupon.percentOff !== null
          ? { percent_off: coupon.percentOff }
          : { amount_off: coupon.amountOff!, currency: coupon.currency!.toLowerCase() }),
      });
    },
    addInvoiceItem: async (input) => {
      const subscription = await stripe.subscriptions.retrieve(input.subscriptionId);
      const customer =
        typeof subscription.customer === 'string'
          ? subscription.customer
          : subscription.customer.id;
      return stripe.invoiceItems.create(
        {
          customer,
          subscription: subscription.id,
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          description: input.description,
          period: { start: input.periodStart, end: input.periodEnd },
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
    },
    listInvoices: async (customerId) =>
      (await stripe.invoices.list({ customer: customerId, limit: 100 })).data,
    verifyWebhook: (rawBody, signature) =>
      stripe.webhooks.constructEventAsync(
        rawBody,
        signature ?? '',
        webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        crypto,
      ),
  };
}

let cached: CardBilling | undefined;

/** Billing type 1 from STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and optional STRIPE_API_BASE. */
export function cardBillingFromEnv(): CardBilling {
  cached ??= createStripeBilling(
    stripeSdk(requireEnv('STRIPE_SECRET_KEY'), Deno.env.get('STRIPE_API_BASE') || undefined),
    requireEnv('STRIPE_WEBHOOK_SECRET'),
  );
  return cached;
}
