/**
 * stripe-webhook: Stripe's events for billing type 1 (POST, no JWT: Stripe signs instead).
 *
 *   200 { received: true, result }   stored and applied (or already, or ignored)
 *   400 { code: 'invalid_signature' } bad or stale signature (older than 300 s)
 *   500                               not applied: Stripe retries later, and the retry applies it
 *
 * The signature is checked on the raw body. The event is stored once by its id in
 * webhook_events and applied with the current state of the objects it names, fetched from
 * Stripe (app.record_stripe_event), so a replayed, late or out-of-order event has one effect and
 * never rolls a row back.
 */
import type postgres from 'postgres';
import type Stripe from 'stripe';
import { billingDocumentsFromEnv, type BillingDocuments } from '../_shared/billing/documents.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { createProviderWebhookHandler } from '../_shared/billing/webhook.ts';
import { sql, type Sql } from '../_shared/sql.ts';
import { documentObjects } from './documents.ts';

export const PROVIDER = 'billing-1';

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);
const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed']);
/** A schedule's events: its next phase is the account's pending downgrade. */
const SCHEDULE_EVENTS = new Set([
  'subscription_schedule.created',
  'subscription_schedule.updated',
  'subscription_schedule.released',
  'subscription_schedule.canceled',
  'subscription_schedule.completed',
  'subscription_schedule.aborted',
]);

function isMissing(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'resource_missing';
}

/** The objects an event names, as Stripe holds them now (the event's own copy if gone). */
async function currentObjects(billing: CardBilling, event: Stripe.Event): Promise<unknown[]> {
  const object = event.data.object as { id?: string };
  const id = object.id;
  if (!id) return [];
  const fresh = async <T>(fetchIt: () => Promise<T>, snapshot: unknown) => {
    try {
      return await fetchIt();
    } catch (error) {
      if (isMissing(error)) return snapshot;
      throw error;
    }
  };
  // An abandoned checkout: the session alone (a domain order it was for is cancelled).
  if (event.type === 'checkout.session.expired')
    return [await fresh(() => billing.retrieveCheckout(id), object)];
  if (event.type === 'checkout.session.completed') {
    const session = (await fresh(
      () => billing.retrieveCheckout(id),
      object,
    )) as Stripe.Checkout.Session;
    const subscriptionId =
      typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
    if (!subscriptionId) return [session];
    return [session, await fresh(() => billing.retrieveSubscription(subscriptionId), null)].filter(
      (entry) => entry !== null,
    );
  }
  if (SUBSCRIPTION_EVENTS.has(event.type))
    return [await fresh(() => billing.retrieveSubscription(id), object)];
  if (SCHEDULE_EVENTS.has(event.type))
    return [await fresh(() => billing.retrieveSchedule(id), object)];
  if (INVOICE_EVENTS.has(event.type))
    return [await fresh(() => billing.retrieveInvoice(id), object)];
  return [];
}

/** Stripe's objects are parsed JSON: their SDK types just don't say so. */
const asJson = (value: unknown) => value as postgres.JSONValue;

export interface StripeWebhookDeps {
  billing: () => CardBilling;
  db: () => Sql;
  documents?: () => BillingDocuments;
}

export function createStripeWebhookHandler(
  deps: StripeWebhookDeps = {
    billing: cardBillingFromEnv,
    db: sql,
    documents: billingDocumentsFromEnv,
  },
) {
  return createProviderWebhookHandler<Stripe.Event>(
    () => ({
      provider: PROVIDER,
      signatureHeader: 'stripe-signature',
      verify: (rawBody, signature) => deps.billing().verifyWebhook(rawBody, signature),
      eventId: (event) => event.id,
      record: async (db, event) => {
        const objects = [
          ...(await currentObjects(deps.billing(), event)),
          ...(deps.documents ? await documentObjects(deps.documents(), event) : []),
        ];
        const [row] = await db<{ result: string }[]>`
          select app.record_stripe_event(${db.json(asJson(event))}, ${db.json(asJson(objects))}) as result`;
        return row!.result;
      },
      recordError: async (db, event, _rawBody, error) => {
        await db`select app.record_stripe_event_error(${db.json(asJson(event))}, ${error})`;
      },
    }),
    deps.db,
  );
}
