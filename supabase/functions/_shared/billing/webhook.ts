import { HttpError, handler, json } from '../http.ts';
import type { Sql } from '../sql.ts';

/**
 * The one webhook endpoint shape both billing providers use (stripe-webhook, paddle-webhook):
 *
 *   200 { received: true, result }   stored and applied (or already, or ignored)
 *   400 { code: 'invalid_signature' } bad or stale signature
 *   405                               not a POST
 *   500                               not applied: the provider retries later, and the retry applies it
 *
 * The signature is checked on the raw body before anything is parsed. An event processed before
 * answers `duplicate` without touching the provider again; otherwise the provider's `record`
 * stores it once by (provider, event id) and applies it in one database transaction, and a
 * failure is written beside the stored event for staff before the 500 goes out.
 */
export interface ProviderWebhook<Event> {
  /** webhook_events.provider: billing-1, billing-2. */
  provider: string;
  signatureHeader: string;
  verify(rawBody: string, signature: string | null): Promise<Event>;
  eventId(event: Event): string;
  /** Stores and applies the event; answers applied, duplicate, stale or ignored. */
  record(db: Sql, event: Event, rawBody: string): Promise<string>;
  recordError(db: Sql, event: Event, rawBody: string, error: string): Promise<void>;
}

export function createProviderWebhookHandler<Event>(
  webhook: () => ProviderWebhook<Event>,
  db: () => Sql,
) {
  return handler(async (request) => {
    if (request.method !== 'POST')
      throw new HttpError(405, 'Method not allowed', 'method_not_allowed');
    const rawBody = await request.text();
    const provider = webhook();
    let event: Event;
    try {
      event = await provider.verify(rawBody, request.headers.get(provider.signatureHeader));
    } catch (error) {
      throw new HttpError(
        400,
        `Webhook signature verification failed: ${(error as Error).message}`,
        'invalid_signature',
      );
    }
    const sql = db();
    const [seen] = await sql<{ processed_at: Date | null }[]>`
      select processed_at from public.webhook_events
      where provider = ${provider.provider} and event_id = ${provider.eventId(event)}`;
    if (seen?.processed_at) return json({ received: true, result: 'duplicate' });
    try {
      return json({ received: true, result: await provider.record(sql, event, rawBody) });
    } catch (error) {
      await provider
        .recordError(sql, event, rawBody, String(error))
        .catch((recordError: unknown) =>
          console.error(`${provider.provider} webhook: could not record the failure`, recordError),
        );
      throw error;
    }
  });
}
