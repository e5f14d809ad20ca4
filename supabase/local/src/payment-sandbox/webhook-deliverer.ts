/**
 * Webhook delivery as payment providers do it: the event's JSON as the body, a signature header
 * made with the endpoint's secret at the moment of each attempt, a 2xx answer acknowledging it,
 * anything else (or no answer within the timeout) retried later with growing delays until the
 * attempts run out. Each provider's sandbox supplies its own headers (stripe-sandbox/webhooks.ts,
 * paddle-sandbox/webhooks.ts).
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

export interface Delivery {
  eventId: string;
  url: string;
  attempts: number;
  status: 'pending' | 'succeeded' | 'failed';
  lastStatus?: number;
}

/** The headers of one attempt (the signature is made anew each time, as providers do). */
export type DeliveryHeaders = (
  payload: string,
  secret: string,
  timestamp: number,
) => Record<string, string>;

export class WebhookDeliverer {
  readonly deliveries: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly endpoints: () => readonly WebhookEndpoint[],
    private readonly options: DeliveryOptions,
    private readonly headers: DeliveryHeaders,
    private readonly defaultRetryDelaysMs: readonly number[],
    private readonly name: string,
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
        headers: this.headers(payload, endpoint.secret, now()),
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      delivery.lastStatus = response.status;
      await response.body?.cancel();
      ok = response.status >= 200 && response.status < 300;
    } catch (error) {
      this.options.log?.(
        `${this.name} sandbox: delivery of ${delivery.eventId} failed: ${String(error)}`,
      );
    }
    if (ok) {
      delivery.status = 'succeeded';
      return;
    }
    const delays = this.options.retryDelaysMs ?? this.defaultRetryDelaysMs;
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
