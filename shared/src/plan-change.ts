/**
 * Moving a subscription to another plan or interval (app-shell 4 and 7): whether the move is an
 * upgrade, taken now and prorated by the provider, or a downgrade, scheduled for the period end
 * as a future subscription; and whether a coupon applies to a checkout.
 */
import type { BillingInterval } from './constants.ts';
import { BLACK_FRIDAY_2024_COUPON, DEFAULT_SALE_CALENDAR, saleCouponFor } from './sale-calendar.ts';
import type { SaleCalendar } from './sale-calendar.ts';
import type { Instant } from './time.ts';

export interface PricedPlan {
  name: string;
  interval: BillingInterval;
  /** Minor units per interval. */
  amount: number;
}

export type PlanChange = 'same' | 'upgrade' | 'downgrade';

/** What a year of the plan costs, to compare a monthly price with a yearly one. */
export function yearlyAmount(plan: PricedPlan): number {
  return plan.interval === 'monthly' ? plan.amount * 12 : plan.amount;
}

/**
 * The same plan billed monthly instead of yearly is a downgrade, and yearly instead of monthly an
 * upgrade; between plans, the one that costs less a year is the downgrade.
 */
export function classifyPlanChange(current: PricedPlan, next: PricedPlan): PlanChange {
  if (current.name === next.name) {
    if (current.interval === next.interval) return 'same';
    return next.interval === 'yearly' ? 'upgrade' : 'downgrade';
  }
  return yearlyAmount(next) < yearlyAmount(current) ? 'downgrade' : 'upgrade';
}

export interface CouponRule {
  code: string;
  intervals: readonly BillingInterval[];
}

/**
 * A coupon applies to a checkout's interval if it lists it; the Black Friday coupon, moreover,
 * only while the sale runs (any of its phases).
 */
export function couponApplies(
  coupon: CouponRule,
  interval: BillingInterval,
  now: Instant,
  calendar: SaleCalendar = DEFAULT_SALE_CALENDAR,
): boolean {
  if (!coupon.intervals.includes(interval)) return false;
  if (coupon.code === BLACK_FRIDAY_2024_COUPON)
    return saleCouponFor(interval, now, calendar) === coupon.code;
  return true;
}
