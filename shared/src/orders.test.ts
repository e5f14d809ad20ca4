import { describe, expect, it } from 'vitest';
import {
  isOrderFailed,
  isOrderFinalized,
  isOrderOnReview,
  isOrderStatusCode,
  ORDER_STATUS,
  orderStatusName,
  paymentStatusLabel,
} from './orders.ts';

const ALL_CODES = [0, 16, 17, 18, 19, 32, 33, 48, 49, 50, 51];

describe('order status codes (app-shell 4)', () => {
  it('numbers the statuses 0 new through 51 refunded', () => {
    expect(ORDER_STATUS).toEqual({
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
    });
    expect(orderStatusName(19)).toBe('fraud_review_in_progress');
    expect(orderStatusName(20)).toBeNull();
    expect(isOrderStatusCode(51)).toBe(true);
    expect(isOrderStatusCode(52)).toBe(false);
  });

  it('finalizes 48, 49 and 51 only', () => {
    expect(ALL_CODES.filter(isOrderFinalized)).toEqual([48, 49, 51]);
  });

  it('counts 18, 49 and 50 as failed', () => {
    expect(ALL_CODES.filter(isOrderFailed)).toEqual([18, 49, 50]);
  });

  it('puts only 19 on review', () => {
    expect(ALL_CODES.filter(isOrderOnReview)).toEqual([19]);
  });

  it('labels payment statuses as the spec lists them', () => {
    expect(ALL_CODES.map(paymentStatusLabel)).toEqual([
      null,
      'authorizing',
      'authorized',
      'expired',
      'fraud review',
      'authorized',
      'authorized',
      'paid',
      'cancelled',
      'failed',
      'refunded',
    ]);
    expect(paymentStatusLabel(99)).toBeNull();
  });
});
