import { Webhook } from 'standardwebhooks';

/** One queued delivery as app.claim_webhook_deliveries hands it out. */
export interface ClaimedDelivery {
  queue_message_id: string;
  delivery_id: string;
  message_id: string;
  url: string;
  secret: string;
  body: string;
  attempts: number;
}

/** What one attempt gave, as app.record_webhook_attempts reads it. */
export interface AttemptResult {
  queue_message_id: string;
  delivery_id: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
  attempted_at: string;
}

/** How long a receiver gets to answer (Standard Webhooks suggests a short timeout). */
export const ATTEMPT_TIMEOUT_MS = 15_000;

/**
 * The Standard Webhooks headers for one attempt: `webhook-id` stays the delivery's message id
 * on every attempt and replay; the timestamp is the attempt's; the signature is
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the secret's base64 bytes.
 */
export function signedHeaders(delivery: ClaimedDelivery, at: Date): Record<string, string> {
  const signature = new Webhook(delivery.secret).sign(delivery.message_id, at, delivery.body);
  return {
    'content-type': 'application/json',
    'user-agent': 'Shortlane-Webhooks/1.0',
    'webhook-id': delivery.message_id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * Sends one delivery and measures it. Any 2xx is a success; redirects are not followed (a
 * receiver must answer itself, and a redirect could lead past the destination rule).
 */
export async function attempt(
  delivery: ClaimedDelivery,
  fetcher: typeof fetch = fetch,
): Promise<AttemptResult> {
  const at = new Date();
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetcher(delivery.url, {
      method: 'POST',
      headers: signedHeaders(delivery, at),
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    status = response.status;
    // The body is not kept; reading it lets the connection be reused.
    await response.body?.cancel();
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (caught) {
    error =
      caught instanceof DOMException && caught.name === 'TimeoutError'
        ? `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
        : caught instanceof Error
          ? caught.message
          : String(caught);
  }
  return {
    queue_message_id: delivery.queue_message_id,
    delivery_id: delivery.delivery_id,
    status,
    latency_ms: Math.round(performance.now() - started),
    error,
    attempted_at: at.toISOString(),
  };
}

/** Runs `work` over `items` with at most `limit` at once, results in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
