import { ApiError, Environment, Paddle, type CurrencyCode } from '@paddle/paddle-node-sdk';
import { requireEnv } from '../env.ts';
import type { OverlayBilling, OverlayCheckoutRequest } from './overlay-provider.ts';

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

export function createPaddleBilling(paddle: Paddle, webhookSecret: string): OverlayBilling {
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
        items: [
          {
            quantity: 1,
            price: {
              description: input.productName,
              name: input.priceName,
              unitPrice: {
                amount: String(input.unitAmount),
                currencyCode: input.currency as CurrencyCode,
              },
              billingCycle: { interval: input.interval, frequency: 1 },
              trialPeriod:
                input.trialDays > 0 ? { interval: 'day', frequency: input.trialDays } : null,
              product: { name: input.productName, taxCategory: 'standard' },
            },
          },
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
