/**
 * kiosk-billing: staff actions on a customer's money, for staff only.
 *
 *   POST { action: "cancel_subscription", subscription_id }  ends the plan now at its provider
 *                                                          (Stripe, or Paddle for billing type 2)
 *   POST { action: "refund_order", order_id }               refunds the order's invoice in full
 *                                                          → the order is refunded (status 51);
 *                                                          a Paddle refund waits for Paddle's
 *                                                          approval first (refund_status)
 *
 * Staff are checked first (requireStaff); the provider is called through the billing adapters;
 * what the provider answers is stored at once (the webhook that follows is then a duplicate in
 * effect) and each action is written to the kiosk audit log with who, whom and what.
 */
import { billingDocumentsFromEnv, type BillingDocuments } from '../_shared/billing/documents.ts';
import { RefundPending, type OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { recordKioskAction } from '../_shared/kiosk/audit.ts';
import { invalid, readAction, readBody } from '../_shared/kiosk/request.ts';
import { requireStaff } from '../_shared/kiosk/staff.ts';
import { plainJson, sql, type Sql } from '../_shared/sql.ts';

export const BILLING_ACTIONS = ['cancel_subscription', 'refund_order'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface KioskBillingDeps {
  billing: () => CardBilling;
  paddle: () => OverlayBilling;
  documents: () => BillingDocuments;
  db: () => Sql;
}

function readId(body: Record<string, unknown>, field: string): string {
  const id = body[field];
  if (typeof id !== 'string' || !UUID.test(id))
    throw invalid(field, `The ${field} must be a UUID.`);
  return id;
}

/** The account owner a row belongs to: the audit log's subject. */
async function ownerOf(db: Sql, accountId: string): Promise<string | null> {
  const [row] = await db<{ owner_id: string | null }[]>`
    select owner_id from public.accounts where id = ${accountId}`;
  return row?.owner_id ?? null;
}

async function cancelSubscription(deps: KioskBillingDeps, staffId: string, id: string) {
  const db = deps.db();
  const [row] = await db<
    {
      billing_id: string | null;
      billing_type: number;
      account_id: string;
      ends_at: Date | null;
    }[]
  >`
    select billing_id, billing_type, account_id, ends_at from public.subscriptions
    where id = ${id} and billing_type in (1, 2)
      -- A pending downgrade is no subscription at the provider.
      and billing_id not like 'sub\_sched\_%' and billing_id not like '%:scheduled'`;
  if (!row?.billing_id)
    throw new HttpError(404, 'No paid subscription with this id.', 'subscription_not_found');
  if (row.ends_at && row.ends_at.getTime() <= Date.now())
    throw new HttpError(409, 'This subscription has already ended.', 'subscription_ended');
  if (row.billing_type === 2) {
    const cancelled = await deps.paddle().cancel(row.billing_id, 'immediately');
    await db`select app.apply_paddle_subscription(${db.json(plainJson(cancelled))})`;
  } else {
    const cancelled = await deps.billing().cancelNow(row.billing_id);
    await db`select app.apply_stripe_subscription(${db.json(plainJson(cancelled))}, now())`;
  }
  await recordKioskAction({
    actorId: staffId,
    action: 'subscription.cancelled',
    subjectUserId: await ownerOf(db, row.account_id),
    details: { subscription_id: id, billing_id: row.billing_id, account_id: row.account_id },
  });
  const [subscription] = await db`
    select id, name, billing_status, ends_at from public.subscriptions where id = ${id}`;
  return json({ subscription });
}

interface RefundableOrder {
  account_id: string;
  status: number;
  billing_type: number;
  invoice: string | null;
  amount: string;
  currency: string | null;
  refund_status: string | null;
}

/**
 * A paid order's money back in full through its provider. Stripe refunds at once (51 now);
 * Paddle creates a refund adjustment `pending_approval` that it approves or rejects later
 * (paddle-webhook applies `adjustment.updated`): the order says refund pending until then.
 * A domain purchase order turning 51 stops its names renewing (20261122007900; the
 * domain-purchase worker cancels the subscription), so the customer is not billed again.
 */
async function refundOrder(deps: KioskBillingDeps, staffId: string, id: string) {
  const db = deps.db();
  const [row] = await db<RefundableOrder[]>`
    select o.account_id, o.status, o.billing_type, o.amount::text, o.currency, o.refund_status,
      (select i.billing_id from public.invoices i
       where i.order_id = o.id and i.billing_type = o.billing_type
       order by i.issued_at limit 1) as invoice
    from public.orders o where o.id = ${id} and o.billing_type in (1, 2)`;
  if (!row) throw new HttpError(404, 'No paid order with this id.', 'order_not_found');
  if (row.status === 51)
    throw new HttpError(409, 'This order is already refunded.', 'order_already_refunded');
  if (row.refund_status === 'pending_approval')
    throw new HttpError(
      409,
      'A refund of this order is waiting for Paddle’s approval.',
      'order_refund_pending',
    );
  if (row.status !== 48 || !row.invoice)
    throw new HttpError(409, 'Only a paid order can be refunded.', 'order_not_paid');
  const reason = `kiosk:${staffId}`;
  const refund =
    row.billing_type === 2
      ? await refundPaddle(deps, row.invoice, reason)
      : await refundStripe(deps, row.invoice, reason);
  await recordKioskAction({
    actorId: staffId,
    action: 'order.refunded',
    subjectUserId: await ownerOf(db, row.account_id),
    details: {
      order_id: id,
      invoice: row.invoice,
      refund: refund.id,
      refund_status: refund.status,
      amount: Number(row.amount),
      currency: row.currency,
    },
  });
  const [order] = await db`
    select id, status, refund_status from public.orders where id = ${id}`;
  return json({ order });
}

async function refundStripe(deps: KioskBillingDeps, invoice: string, reason: string) {
  const db = deps.db();
  const refund = await deps.documents().refundInvoice(invoice, reason);
  await db`select app.apply_stripe_refund(${db.json({
    object: 'refund',
    invoice,
    refunded: refund.status === 'succeeded' || refund.status === 'pending',
  })}, now())`;
  return { id: refund.id, status: refund.status };
}

/**
 * A full refund adjustment of the order's transaction, stored as Paddle answers it (the
 * notifications that follow apply in the adjustment's own order). Paddle takes no idempotency
 * key: a full refund made earlier and not rejected (an answer lost before it was stored) is
 * taken instead of asking again.
 */
async function refundPaddle(deps: KioskBillingDeps, transactionId: string, reason: string) {
  const db = deps.db();
  const overlay = deps.paddle();
  const earlier = (await overlay.refunds(transactionId)).find(
    (adjustment) => adjustment.type === 'full' && adjustment.status !== 'rejected',
  );
  const adjustment =
    earlier ??
    (await overlay.refund(transactionId, reason, 'full').catch((error: unknown) => {
      // Another refund of the transaction (a refused domain name's) waits for Paddle's approval.
      if (error instanceof RefundPending)
        throw new HttpError(
          409,
          'Paddle is still reviewing an earlier refund of this order: try again once it is decided.',
          'order_refund_pending',
        );
      throw error;
    }));
  await db`select app.apply_paddle_adjustment(${db.json(plainJson(adjustment))})`;
  return { id: adjustment.id, status: adjustment.status };
}

export function createKioskBillingHandler(
  deps: KioskBillingDeps = {
    billing: cardBillingFromEnv,
    paddle: overlayBillingFromEnv,
    documents: billingDocumentsFromEnv,
    db: sql,
  },
) {
  return handler(async (request) => {
    const staff = await requireStaff(request);
    const body = await readBody(request);
    const action = readAction(body, BILLING_ACTIONS);
    if (action === 'cancel_subscription')
      return await cancelSubscription(deps, staff.id, readId(body, 'subscription_id'));
    return await refundOrder(deps, staff.id, readId(body, 'order_id'));
  });
}
