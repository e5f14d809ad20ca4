import type Stripe from 'stripe';
import type { BillingDocuments } from '../_shared/billing/documents.ts';

/**
 * The objects the billing-documents events name, as Stripe holds them now (see
 * 20261122004800_billing_documents.sql for how each kind is applied):
 *
 * - a new default card (payment_method.attached, customer.updated, setup_intent.succeeded,
 *   checkout.session.completed): the customer's default payment method now;
 * - charge.refunded: `{ object: 'refund', invoice, refunded }` for the invoice the charge paid.
 */
const CARD_EVENTS = new Set([
  'payment_method.attached',
  'customer.updated',
  'setup_intent.succeeded',
  'checkout.session.completed',
]);

function customerOf(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string; customer?: unknown };
  if (event.type === 'customer.updated') return object.id ?? null;
  // Every completed checkout (a subscription's too) saved a card: its event may be the first
  // to make the billing customer, after the card's own events were applied to no row.
  return typeof object.customer === 'string' ? object.customer : null;
}

export async function documentObjects(
  documents: BillingDocuments,
  event: Stripe.Event,
): Promise<unknown[]> {
  if (CARD_EVENTS.has(event.type)) {
    const customer = customerOf(event);
    if (!customer) return [];
    const method = await documents.defaultPaymentMethod(customer);
    return method ? [method] : [];
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    const intent =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    if (!intent) return [];
    const invoice = await documents.invoiceOfPaymentIntent(intent);
    if (!invoice) return [];
    // A refund is never undone, so the event's copy of the charge is as good as a fresh one.
    const refunded = event.data.object as { refunded?: boolean };
    return [
      { object: 'refund', invoice, payment_intent: intent, refunded: refunded.refunded === true },
    ];
  }
  return [];
}
