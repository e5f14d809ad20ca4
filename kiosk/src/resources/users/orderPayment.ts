import { BILLING_TYPES } from '@shortlane/shared/constants.ts';
import { ORDER_STATUS, paymentStatusLabel } from '@shortlane/shared/orders.ts';

/** The columns of an order the Billing tab reads. */
export interface OrderPayment {
  status: number;
  billing_type: number | null;
  refund_status: string | null;
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
