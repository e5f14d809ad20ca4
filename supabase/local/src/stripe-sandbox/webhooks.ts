import { createHmac } from 'node:crypto';
import {
  WebhookDeliverer as ProviderWebhookDeliverer,
  type DeliveryOptions,
  type WebhookEndpoint,
} from '../payment-sandbox/webhook-deliverer.ts';

/**
 * Webhook delivery as Stripe (and `stripe listen --forward-to`) does it: the event's JSON as
 * the body, `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed with the
 * endpoint's whsec_ secret>`, retried on anything but a 2xx (payment-sandbox/webhook-deliverer.ts).
 */

export type {
  Delivery,
  DeliveryOptions,
  WebhookEndpoint,
} from '../payment-sandbox/webhook-deliverer.ts';

/** Stripe retries for up to three days with exponential backoff; the sandbox keeps the shape, shorter. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export class WebhookDeliverer extends ProviderWebhookDeliverer {
  constructor(endpoints: () => readonly WebhookEndpoint[], options: DeliveryOptions = {}) {
    super(
      endpoints,
      options,
      (payload, secret, timestamp) => ({
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': signatureHeader(payload, secret, timestamp),
      }),
      DEFAULT_RETRY_DELAYS_MS,
      'stripe',
    );
  }
}
