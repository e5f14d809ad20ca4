import { createHmac } from 'node:crypto';
import {
  WebhookDeliverer,
  type DeliveryOptions,
  type WebhookEndpoint,
} from '../payment-sandbox/webhook-deliverer.ts';

/**
 * Notifications as Paddle sends them to a webhook destination: the notification's JSON as the
 * body and `Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "ts:body" keyed with the
 * destination's secret>`, signed anew for every attempt; anything but a 2xx is retried.
 */

/** Sandbox accounts retry 3 times within 15 minutes (live ones 60 times over 3 days). */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 240_000, 600_000] as const;

export function paddleSignatureHeader(payload: string, secret: string, timestamp: number): string {
  const h1 = createHmac('sha256', secret).update(`${timestamp}:${payload}`).digest('hex');
  return `ts=${timestamp};h1=${h1}`;
}

export function paddleDeliverer(
  endpoints: () => readonly WebhookEndpoint[],
  options: DeliveryOptions = {},
): WebhookDeliverer {
  return new WebhookDeliverer(
    endpoints,
    options,
    (payload, secret, timestamp) => ({
      'content-type': 'application/json',
      'user-agent': 'Paddle',
      'paddle-signature': paddleSignatureHeader(payload, secret, timestamp),
    }),
    DEFAULT_RETRY_DELAYS_MS,
    'paddle',
  );
}
