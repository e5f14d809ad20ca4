import { isOrderFailed, isOrderFinalized, isOrderOnReview } from '@shortlane/shared/orders.ts';

/** The badge colour of an order's payment state (app-shell 4's groups). */
export function orderStatusColour(status: number): string {
  if (isOrderFailed(status)) return 'red';
  if (isOrderOnReview(status)) return 'orange';
  if (isOrderFinalized(status)) return status === 51 ? 'gray' : 'green';
  return 'blue';
}

/** What an order's page and notification say about where its payment stands. */
export function orderStatusSummary(status: number): string {
  if (status === 51) return 'This order was refunded.';
  if (isOrderFailed(status))
    return status === 49
      ? 'The payment for this order was cancelled.'
      : 'The payment for this order failed. Please update your payment method.';
  if (isOrderOnReview(status))
    return 'The payment for this order is being reviewed. We will let you know once it is done.';
  if (isOrderFinalized(status)) return 'This order is paid.';
  return 'This order is being processed.';
}
