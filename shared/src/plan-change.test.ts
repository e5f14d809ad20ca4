import { describe, expect, it } from 'vitest';
import { classifyPlanChange, couponApplies } from './plan-change.ts';
import { BLACK_FRIDAY_2024_COUPON } from './sale-calendar.ts';

describe('classifyPlanChange', () => {
  const pro = { name: 'pro', amount: 1299, interval: 'monthly' as const };
  const proYearly = { name: 'pro', amount: 12900, interval: 'yearly' as const };
  const business = { name: 'business', amount: 4999, interval: 'monthly' as const };

  it('a dearer plan or a yearly switch is an upgrade, taken now', () => {
    expect(classifyPlanChange(pro, business)).toBe('upgrade');
    expect(classifyPlanChange(pro, proYearly)).toBe('upgrade');
  });

  it('a cheaper plan, or the same plan monthly instead of yearly, is a downgrade', () => {
    expect(classifyPlanChange(business, pro)).toBe('downgrade');
    expect(classifyPlanChange(proYearly, pro)).toBe('downgrade');
    expect(classifyPlanChange({ ...proYearly, amount: 12 * 1299 }, pro)).toBe('downgrade');
  });

  it('the same plan and interval is no change', () => {
    expect(classifyPlanChange(pro, { ...pro })).toBe('same');
  });
});

describe('couponApplies', () => {
  const black = { code: BLACK_FRIDAY_2024_COUPON, intervals: ['yearly'] as const };

  it('the Black Friday coupon applies to yearly intervals during the sale phases only', () => {
    expect(couponApplies(black, 'yearly', '2024-11-18T00:00:00Z')).toBe(true);
    expect(couponApplies(black, 'yearly', '2024-12-02T23:59:59Z')).toBe(true);
    expect(couponApplies(black, 'monthly', '2024-11-26T00:00:00Z')).toBe(false);
    expect(couponApplies(black, 'yearly', '2024-11-17T23:59:59Z')).toBe(false);
    expect(couponApplies(black, 'yearly', '2024-12-03T00:00:00Z')).toBe(false);
  });

  it('another coupon applies to the intervals it lists at any time', () => {
    const spring = { code: 'SPRING', intervals: ['monthly', 'yearly'] as const };
    expect(couponApplies(spring, 'monthly', '2026-03-01T00:00:00Z')).toBe(true);
  });
});
