import { describe, expect, it } from 'vitest';
import { orderPaymentLabel, refundable, refundConsequences } from './orderPayment.ts';

describe('orderPaymentLabel', () => {
  it('says a refund is pending or rejected beside the paid status, and nothing once refunded', () => {
    const paid = { status: 48, billing_type: 2, refund_status: null };
    expect(orderPaymentLabel(paid)).toBe('paid (48)');
    expect(orderPaymentLabel({ ...paid, refund_status: 'pending_approval' })).toBe(
      'paid (48), refund pending approval',
    );
    expect(orderPaymentLabel({ ...paid, refund_status: 'rejected' })).toBe(
      'paid (48), refund rejected',
    );
    expect(orderPaymentLabel({ ...paid, status: 51, refund_status: 'approved' })).toBe(
      'refunded (51)',
    );
  });
});

describe('refundable', () => {
  it('takes paid orders of either provider with no refund waiting', () => {
    expect(refundable({ status: 48, billing_type: 1, refund_status: null })).toBe(true);
    expect(refundable({ status: 48, billing_type: 2, refund_status: 'rejected' })).toBe(true);
    expect(refundable({ status: 48, billing_type: 2, refund_status: 'pending_approval' })).toBe(
      false,
    );
    expect(refundable({ status: 51, billing_type: 2, refund_status: 'approved' })).toBe(false);
    expect(refundable({ status: 50, billing_type: 1, refund_status: null })).toBe(false);
    expect(refundable({ status: 48, billing_type: null, refund_status: null })).toBe(false);
  });
});

describe('refundConsequences', () => {
  it('says where the money goes, and that a domain purchase stops renewing its names', () => {
    const card = { status: 48, billing_type: 1, refund_status: null };
    expect(refundConsequences(card)).toBe(
      'The whole amount goes back to the card it was paid with.',
    );
    expect(refundConsequences({ ...card, billing_type: 2 })).toMatch(
      /^The whole amount goes back to the customer once Paddle approves the refund/,
    );
    const domains = refundConsequences({ ...card, purchase_source: 'domain-purchase' });
    expect(domains).toMatch(/^The whole amount goes back to the card it was paid with\. /);
    expect(domains).toContain('Its domains then stop renewing');
    // A renewal's refund gives that year back; the names' own subscription is left as it is.
    expect(refundConsequences({ ...card, purchase_source: 'domain-renewal' })).not.toContain(
      'stop renewing',
    );
  });
});
