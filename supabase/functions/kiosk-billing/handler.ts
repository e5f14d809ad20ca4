/**
 * kiosk-billing: staff actions on a customer's money, for staff only.
 *
 *   POST { action: "cancel_subscription", subscription_id }  ends the plan now at its provider
 *                                                          (Stripe, or Paddle for billing type 2)
 *   POST { action: "refund_order", order_id }               refunds the order's invoice in full
 *                                                          → the order is refunded (status 51)
 *
 * Staff are checked first (requireStaff); the provider is called through the billing adapters;
 * what the provider answers is stored at once (the webhook that follows is then a duplicate in
 * effect) and each action is written to the kiosk audit log with who, whom and what.
 */
import type postgres from 'postgres';
import { billingDocumentsFromEnv, type BillingDocuments } from '../_shared/billing/documents.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { recordKioskAction } from '../_shared/kiosk/audit.ts';
import { invalid, readAction, readBody } from '../_shared/kiosk/request.ts';
import { requireStaff } from '../_shared/kiosk/staff.ts';
import { sql, type Sql } from '../_shared/sql.ts';

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
  const asJson = (value: unknown) =>
    db.json(JSON.parse(JSON.stringify(value)) as postgres.JSONValue);
  if (row.billing_type === 2) {
    const cancelled = await deps.paddle().cancel(row.billing_id, 'immediately');
    await db`select app.apply_paddle_subscription(${asJson(cancelled)})`;
  } else {
    const cancelled = await deps.billing().cancelNow(row.billing_id);
    await db`select app.apply_stripe_subscription(${asJson(cancelled)}, now())`;
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

async function refundOrder(deps: KioskBillingDeps, staffId: string, id: string) {
  const db = deps.db();
  const [row] = await db<
    {
      account_id: string;
      status: number;
      invoice: string | null;
      amount: string;
      currency: string | null;
    }[]
  >`
    select o.account_id, o.status, o.amount::text, o.currency,
      (select i.billing_id from public.invoices i
       where i.order_id = o.id and i.billing_type = 1 order by i.issued_at desc limit 1) as invoice
    from public.orders o where o.id = ${id} and o.billing_type = 1`;
  if (!row) throw new HttpError(404, 'No card order with this id.', 'order_not_found');
  if (row.status === 51)
    throw new HttpError(409, 'This order is already refunded.', 'order_already_refunded');
  if (row.status !== 48 || !row.invoice)
    throw new HttpError(409, 'Only a paid order can be refunded.', 'order_not_paid');
  const refund = await deps.documents().refundInvoice(row.invoice, `kiosk:${staffId}`);
  await db`select app.apply_stripe_refund(${db.json({
    object: 'refund',
    invoice: row.invoice,
    refunded: refund.status === 'succeeded' || refund.status === 'pending',
  })}, now())`;
  await recordKioskAction({
    actorId: staffId,
    action: 'order.refunded',
    subjectUserId: await ownerOf(db, row.account_id),
    details: {
      order_id: id,
      invoice: row.invoice,
      refund: refund.id,
      amount: Number(row.amount),
      currency: row.currency,
    },
  });
  const [order] = await db`select id, status from public.orders where id = ${id}`;
  return json({ order });
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
