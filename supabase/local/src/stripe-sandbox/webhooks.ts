import { createHmac } from 'node:crypto';

/**
 * Webhook delivery as Stripe (and `stripe listen --forward-to`) does it: the event's JSON as
 * the body, `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed with the
 * endpoint's whsec_ secret>`, a 2xx answer acknowledging it, anything else (or no answer within
 * the timeout) retried later with growing delays until the attempts run out.
 */

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export interface DeliveryOptions {
  /** Delays before the 2nd, 3rd… attempt (ms); its length + 1 is the number of attempts. */
  retryDelaysMs?: readonly number[];
  /** How long one attempt waits for an answer. */
  timeoutMs?: number;
  /** Unix seconds, for signatures. */
  now?: () => number;
  log?: (line: string) => void;
}

/** Stripe retries for up to three days with exponential backoff; the sandbox keeps the shape, shorter. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface Delivery {
  eventId: string;
  url: string;
  attempts: number;
  status: 'pending' | 'succeeded' | 'failed';
  lastStatus?: number;
}

export class WebhookDeliverer {
  readonly deliveries: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly endpoints: () => readonly WebhookEndpoint[],
    private readonly options: DeliveryOptions = {},
  ) {}

  /** Queues one event (its JSON text) for every endpoint. */
  send(eventId: string, payload: string): void {
    for (const endpoint of this.endpoints()) {
      const delivery: Delivery = { eventId, url: endpoint.url, attempts: 0, status: 'pending' };
      this.deliveries.push(delivery);
      this.attempt(delivery, endpoint, payload);
    }
  }

  private attempt(delivery: Delivery, endpoint: WebhookEndpoint, payload: string): void {
    if (this.stopped) return;
    const run = this.post(delivery, endpoint, payload).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async post(delivery: Delivery, endpoint: WebhookEndpoint, payload: string) {
    const now = this.options.now ?? (() => Math.floor(Date.now() / 1000));
    delivery.attempts++;
    let ok = false;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(payload, endpoint.secret, now()),
        },
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      delivery.lastStatus = response.status;
      await response.body?.cancel();
      ok = response.status >= 200 && response.status < 300;
    } catch (error) {
      this.options.log?.(
        `stripe sandbox: delivery of ${delivery.eventId} failed: ${String(error)}`,
      );
    }
    if (ok) {
      delivery.status = 'succeeded';
      return;
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const delay = delays[delivery.attempts - 1];
    if (delay === undefined || this.stopped) {
      delivery.status = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(delivery, endpoint, payload);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** Cancels pending retries and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
