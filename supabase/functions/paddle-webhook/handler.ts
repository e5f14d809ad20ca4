/**
 * paddle-webhook: Paddle Billing's notifications for billing type 2 (POST, no JWT: Paddle signs
 * instead). Answers as every billing webhook does (_shared/billing/webhook.ts); a signature
 * older than 5 s is refused.
 *
 * The signature (`Paddle-Signature: ts=…;h1=…`) is checked on the raw body by the official SDK,
 * which also parses the notification into its entity. app.record_paddle_event stores the
 * notification once by its event id and applies the entity guarded by the entity's own
 * `updated_at`, so a replayed, late or out-of-order notification has one effect and never rolls
 * a row back.
 */
import type { EventEntity } from '@paddle/paddle-node-sdk';
import type postgres from 'postgres';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { createProviderWebhookHandler } from '../_shared/billing/webhook.ts';
import { plainJson, sql, type Sql } from '../_shared/sql.ts';

export const PROVIDER = 'billing-2';

/** The notification as Paddle sent it (already verified, so valid JSON). */
const received = (rawBody: string) => JSON.parse(rawBody) as postgres.JSONValue;

export interface PaddleWebhookDeps {
  billing: () => OverlayBilling;
  db: () => Sql;
}

export function createPaddleWebhookHandler(
  deps: PaddleWebhookDeps = { billing: overlayBillingFromEnv, db: sql },
) {
  return createProviderWebhookHandler<EventEntity>(
    () => ({
      provider: PROVIDER,
      signatureHeader: 'paddle-signature',
      verify: (rawBody, signature) => deps.billing().verifyWebhook(rawBody, signature),
      eventId: (event) => event.eventId,
      record: async (db, event, rawBody) => {
        const [row] = await db<{ result: string }[]>`
          select app.record_paddle_event(${db.json(received(rawBody))}, ${db.json(plainJson(event.data))}) as result`;
        return row!.result;
      },
      recordError: async (db, event, rawBody, error) => {
        await db`
          select app.record_billing_event_error(${PROVIDER}, ${event.eventId}, ${event.eventType},
            ${db.json(received(rawBody))}, ${error})`;
      },
    }),
    deps.db,
  );
}
