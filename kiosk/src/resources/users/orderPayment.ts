import { BILLING_TYPES } from '@shortlane/shared/constants.ts';
import { ORDER_STATUS, paymentStatusLabel } from '@shortlane/shared/orders.ts';

/** The columns of an order the Billing tab reads. */
export interface OrderPayment {
  status: number;
  billing_type: number | null;
  refund_status: string | null;
  /** What was bought: 'subscription', 'domain-purchase', 'domain-renewal', … */
  purchase_source?: string | null;
}

/**
 * An order's payment as staff read it: the spec's status label and code, and a full refund the
 * provider has not decided yet (Paddle reviews refunds: pending until approved, then 51) or
 * refused (the order stays paid).
 */
export function orderPaymentLabel(order: OrderPayment): string {
  const status = `${paymentStatusLabel(order.status) ?? 'new'} (${order.status})`;
  if (order.status === ORDER_STATUS.refunded) return status;
  if (order.refund_status === 'pending_approval') return `${status}, refund pending approval`;
  if (order.refund_status === 'rejected') return `${status}, refund rejected`;
  return status;
}

/** Whether staff may ask for a full refund now: paid, with no refund waiting for approval. */
export const refundable = (order: OrderPayment): boolean =>
  (order.billing_type === BILLING_TYPES.provider1 ||
    order.billing_type === BILLING_TYPES.provider2) &&
  order.status === ORDER_STATUS.paid &&
  order.refund_status !== 'pending_approval';

/**
 * What a full refund of the order does, for the confirmation staff answer: where the money goes,
 * and for a domain purchase that its names stop renewing (migration 20261122007900).
 */
export function refundConsequences(order: OrderPayment): string {
  const money =
    order.billing_type === BILLING_TYPES.provider2
      ? 'The whole amount goes back to the customer once Paddle approves the refund; until then the order stays paid, refund pending.'
      : 'The whole amount goes back to the card it was paid with.';
  if (order.purchase_source !== 'domain-purchase') return money;
  return `${money} Its domains then stop renewing: a registered name stays the customer's until it expires, and one not registered yet is not registered.`;
}
