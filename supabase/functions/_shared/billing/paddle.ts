import { ApiError, Environment, Paddle, type CurrencyCode } from '@paddle/paddle-node-sdk';
import { requireEnv } from '../env.ts';
import {
  RefundPending,
  type DiscountRequest,
  type OverlayBilling,
  type OverlayCheckoutRequest,
  type OverlayPriceRequest,
} from './overlay-provider.ts';

/**
 * The SDK aimed at PADDLE_API_BASE when set (the local sandbox), else at Paddle's own hosts for
 * PADDLE_ENVIRONMENT (`production` unless `sandbox`). The SDK maps only those two names to
 * hosts and takes any other value of `environment` as the base URL itself.
 */
export function paddleSdk(apiKey: string, apiBase?: string, environment?: string): Paddle {
  const target = apiBase
    ? (apiBase.replace(/\/+$/, '') as Environment)
    : environment === 'sandbox'
      ? Environment.sandbox
      : Environment.production;
  return new Paddle(apiKey, { environment: target });
}

/** Paddle answers a taken e-mail with the id of the customer that has it. */
function existingCustomerId(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'customer_already_exists') return null;
  return /\b(ctm_[a-z0-9]+)\b/.exec(error.detail)?.[1] ?? null;
}

/** A non-catalog price for a plan, as a checkout and an item change both give it. */
function planPrice(input: OverlayPriceRequest, trialDays = 0) {
  return {
    description: input.productName,
    name: input.priceName,
    unitPrice: { amount: String(input.unitAmount), currencyCode: input.currency as CurrencyCode },
    billingCycle: { interval: input.interval, frequency: 1 },
    trialPeriod: trialDays > 0 ? { interval: 'day' as const, frequency: trialDays } : null,
    product: { name: input.productName, taxCategory: 'standard' as const },
  };
}

/** Paddle's discount codes are letters and digits, at most 32. */
export const discountCode = (code: string) => code.replace(/[^A-Za-z0-9]/g, '').slice(0, 32);

export function createPaddleBilling(
  paddle: Paddle,
  webhookSecret: string,
  fetchPdf: typeof fetch = fetch,
): OverlayBilling {
  return {
    billingType: 2,
    createCustomer: async ({ email, customData }) => {
      try {
        return await paddle.customers.create({ email, customData });
      } catch (error) {
        const id = existingCustomerId(error);
        if (!id) throw error;
        return await paddle.customers.get(id);
      }
    },
    customerAuthToken: async (customerId) =>
      (await paddle.customers.generateAuthToken(customerId)).customerAuthToken,
    createCheckout: (input: OverlayCheckoutRequest) =>
      paddle.transactions.create({
        customerId: input.customerId,
        currencyCode: input.currency as CurrencyCode,
        customData: input.customData,
        checkout: { url: input.checkoutUrl },
        ...(input.discountId ? { discountId: input.discountId } : {}),
        items: [
          { quantity: 1, price: planPrice(input, input.trialDays) },
          ...(input.oneTimeItems ?? []).map((item) => ({
            quantity: 1,
            price: {
              description: item.name,
              name: item.name,
              unitPrice: {
                amount: String(item.unitAmount),
                currencyCode: input.currency as CurrencyCode,
              },
              product: { name: item.name, taxCategory: 'standard' as const },
            },
          })),
        ],
      }),
    retrieveTransaction: (id) => paddle.transactions.get(id),
    retrieveSubscription: (id) => paddle.subscriptions.get(id),
    cancel: (id, effective) => paddle.subscriptions.cancel(id, { effectiveFrom: effective }),
    removeScheduledChange: (id) => paddle.subscriptions.update(id, { scheduledChange: null }),
    chargeOnce: (subscriptionId, charge) =>
      paddle.subscriptions.createOneTimeCharge(subscriptionId, {
        effectiveFrom: 'next_billing_period',
        items: [
          {
            quantity: 1,
            price: {
              description: charge.description,
              name: charge.description,
              unitPrice: {
                amount: String(charge.amount),
                currencyCode: charge.currency as CurrencyCode,
              },
              customData: charge.customData,
              product: { name: 'Overage', taxCategory: 'standard' },
            },
          },
        ],
      }),
    hasPendingCharge: async (subscriptionId, customData) => {
      const subscription = await paddle.subscriptions.get(subscriptionId, {
        include: ['next_transaction'],
      });
      // The lines name their price entities; the custom data is on those.
      for (const line of subscription.nextTransaction?.details.lineItems ?? []) {
        const price = await paddle.prices.get(line.priceId);
        const data = (price.customData ?? {}) as Record<string, unknown>;
        if (Object.entries(customData).every(([key, value]) => data[key] === value)) return true;
      }
      return false;
    },
    changePrice: (id, price, customData, billing) =>
      paddle.subscriptions.update(id, {
        items: [{ quantity: 1, price: planPrice(price) }],
        prorationBillingMode: billing,
        onPaymentFailure: 'prevent_change',
        customData,
      }),
    previewPriceChange: (id, price, billing) =>
      paddle.subscriptions.previewUpdate(id, {
        items: [{ quantity: 1, price: planPrice(price) }],
        prorationBillingMode: billing,
      }),
    setCustomData: (id, customData) => paddle.subscriptions.update(id, { customData }),
    paymentMethodTransaction: (id) => paddle.subscriptions.getPaymentMethodChangeTransaction(id),
    refund: (transactionId, reason, items) =>
      paddle.adjustments
        .create(
          items === 'full'
            ? { action: 'refund', type: 'full', transactionId, reason }
            : {
                action: 'refund',
                type: 'partial',
                transactionId,
                reason,
                items: items.map((item) => ({
                  itemId: item.itemId,
                  type: 'partial',
                  amount: String(item.amount),
                })),
              },
        )
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'adjustment_pending_refund_request')
            throw new RefundPending(transactionId);
          throw error;
        }),
    refunds: async (transactionId) => {
      const found = [];
      for await (const adjustment of paddle.adjustments.list({
        transactionId: [transactionId],
        action: 'refund',
      }))
        found.push(adjustment);
      return found;
    },
    invoicePdf: async (id) => {
      // A short-lived link to the PDF, fetched at once.
      const { url } = await paddle.transactions.getInvoicePDF(id);
      const response = await fetchPdf(url);
      if (!response.ok) throw new Error(`transaction ${id}: the PDF answered ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    ensureDiscount: async (coupon: DiscountRequest) => {
      const code = discountCode(coupon.code);
      const [existing] = await paddle.discounts.list({ code: [code] }).next();
      if (existing) return existing;
      return await paddle.discounts.create({
        code,
        description: `Coupon ${coupon.code}`,
        enabledForCheckout: true,
        recur: false,
        ...(coupon.percentOff !== null
          ? { type: 'percentage', amount: String(coupon.percentOff) }
          : {
              type: 'flat',
              amount: String(coupon.amountOff),
              currencyCode: coupon.currency!.toUpperCase() as CurrencyCode,
            }),
      });
    },
    verifyWebhook: (rawBody, signature) =>
      paddle.webhooks.unmarshal(rawBody, webhookSecret, signature ?? ''),
  };
}

let cached: OverlayBilling | undefined;

/**
 * Billing type 2 from PADDLE_API_KEY, PADDLE_WEBHOOK_SECRET, and PADDLE_API_BASE (the local
 * sandbox) or PADDLE_ENVIRONMENT.
 */
export function overlayBillingFromEnv(): OverlayBilling {
  cached ??= createPaddleBilling(
    paddleSdk(
      requireEnv('PADDLE_API_KEY'),
      Deno.env.get('PADDLE_API_BASE') || undefined,
      Deno.env.get('PADDLE_ENVIRONMENT') || undefined,
    ),
    requireEnv('PADDLE_WEBHOOK_SECRET'),
  );
  return cached;
}
