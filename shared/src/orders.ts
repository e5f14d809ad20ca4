/** Order status codes and their groupings (app-shell section 4). */

export const ORDER_STATUS = {
  new: 0,
  authorizing: 16,
  authorized: 17,
  authorization_expired: 18,
  fraud_review_in_progress: 19,
  processing: 32,
  processed: 33,
  paid: 48,
  payment_cancelled: 49,
  payment_failed: 50,
  refunded: 51,
} as const;
export type OrderStatusName = keyof typeof ORDER_STATUS;
export type OrderStatusCode = (typeof ORDER_STATUS)[OrderStatusName];

const NAME_BY_CODE = new Map<number, OrderStatusName>(
  Object.entries(ORDER_STATUS).map(([name, code]) => [code, name as OrderStatusName]),
);

export const FINALIZED_ORDER_STATUSES: ReadonlySet<number> = new Set([48, 49, 51]);
export const FAILED_ORDER_STATUSES: ReadonlySet<number> = new Set([18, 49, 50]);
export const ON_REVIEW_ORDER_STATUSES: ReadonlySet<number> = new Set([19]);

/** Payment status labels; the spec gives none for 0 (new). */
export const PAYMENT_STATUS_LABELS: Readonly<Partial<Record<OrderStatusCode, string>>> = {
  16: 'authorizing',
  17: 'authorized',
  18: 'expired',
  19: 'fraud review',
  32: 'authorized',
  33: 'authorized',
  48: 'paid',
  49: 'cancelled',
  50: 'failed',
  51: 'refunded',
};

export function isOrderStatusCode(code: number): code is OrderStatusCode {
  return NAME_BY_CODE.has(code);
}

export function orderStatusName(code: number): OrderStatusName | null {
  return NAME_BY_CODE.get(code) ?? null;
}

export function isOrderFinalized(code: number): boolean {
  return FINALIZED_ORDER_STATUSES.has(code);
}

export function isOrderFailed(code: number): boolean {
  return FAILED_ORDER_STATUSES.has(code);
}

export function isOrderOnReview(code: number): boolean {
  return ON_REVIEW_ORDER_STATUSES.has(code);
}

export function paymentStatusLabel(code: number): string | null {
  return isOrderStatusCode(code) ? (PAYMENT_STATUS_LABELS[code] ?? null) : null;
}
