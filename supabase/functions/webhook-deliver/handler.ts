import type postgres from 'postgres';
import { HttpError, handler, json } from '../_shared/http.ts';
import { requireEnv } from '../_shared/env.ts';
import { sql } from '../_shared/sql.ts';
import { attempt, type ClaimedDelivery, mapLimited } from './send.ts';

/** Deliveries taken off the queue per round, and requests in flight at once. */
const BATCH = 100;
const CONCURRENCY = 32;
/** A run stops taking new rounds after this long (the next cron kick carries on). */
const RUN_BUDGET_MS = 20_000;
/** How long a claimed message stays hidden: longer than a round can take. */
const CLAIM_SECONDS = 60;

/**
 * The delivery worker, woken by the cron job webhook-deliver (app.kick_webhook_delivery) with
 * the service role key: rounds of claim → send (signed, in parallel) → record, until the queue
 * has nothing due or the run's budget is spent. Each round is recorded before the next, so a
 * killed run loses at most its messages' visibility timeout.
 */
export const deliverWebhooks = handler(async (request) => {
  if (request.method !== 'POST') throw new HttpError(405, 'Use POST', 'method_not_allowed');
  const token = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
  if (token !== requireEnv('SUPABASE_SERVICE_ROLE_KEY')) {
    throw new HttpError(403, 'Only the service role runs deliveries', 'forbidden');
  }
  const started = Date.now();
  let sent = 0;
  let succeeded = 0;
  while (Date.now() - started < RUN_BUDGET_MS) {
    const claimed = await sql()<ClaimedDelivery[]>`
      select queue_message_id::text, delivery_id::text, message_id, url, secret, body, attempts
      from app.claim_webhook_deliveries(${BATCH}, ${CLAIM_SECONDS})`;
    if (claimed.length === 0) break;
    const results = await mapLimited(claimed, CONCURRENCY, (delivery) => attempt(delivery));
    // AttemptResult is plain JSON data; postgres.js types json() parameters as JSONValue.
    await sql()`select app.record_webhook_attempts(${sql().json(results as unknown as postgres.JSONValue)})`;
    sent += results.length;
    succeeded += results.filter((result) => result.error === null).length;
  }
  return json({ sent, succeeded, failed: sent - succeeded });
});
