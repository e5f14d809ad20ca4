import { describe, expect, it } from 'vitest';
import type { LimitUsage } from './credits.ts';
import {
  checkCredits,
  isLimitReached,
  overageAmountMinor,
  overageChargeMinor,
  PLAN_LIMIT_MODAL,
  shouldShowPlanLimitModal,
  usagePercent,
} from './credits.ts';

const limits = (limit: number | null, used: number) => ({
  limit: { web: limit },
  used: { web: used },
});

describe('credits check (app-shell 5)', () => {
  it("refuses with 'Not enough credits for this operation' when remaining (limit − used.web) is below the cost", () => {
    expect(checkCredits(limits(100, 95), 6)).toEqual({
      ok: false,
      code: 'not_enough_credits',
      message: 'Not enough credits for this operation',
      cost: 6,
      remaining: 5,
    });
  });

  it('confirms when the remaining credits exactly cover the cost', () => {
    expect(checkCredits(limits(100, 95), 5)).toEqual({ ok: true, creditsToUse: 5, remaining: 5 });
  });

  it('confirms without checking when there is no limit or no cost', () => {
    expect(checkCredits(limits(null, 10_000), 50)).toEqual({
      ok: true,
      creditsToUse: 50,
      remaining: null,
    });
    expect(checkCredits(limits(10, 12), 0)).toEqual({ ok: true, creditsToUse: 0, remaining: -2 });
  });

  it('refuses a nonsensical cost', () => {
    expect(() => checkCredits(limits(10, 0), -1)).toThrow(RangeError);
    expect(() => checkCredits(limits(10, 0), Number.NaN)).toThrow(RangeError);
  });
});

describe('limits and the plan-limit modal (link-creation 4)', () => {
  const usage = (used: number, limit: number | null, overage = false): LimitUsage => ({
    used,
    limit,
    soft_limit: null,
    overage,
  });

  it('computes usage in percent; unlimited has none, a zero limit is full', () => {
    expect(usagePercent(usage(50, 200))).toBe(25);
    expect(usagePercent(usage(50, null))).toBeNull();
    expect(usagePercent(usage(0, 0))).toBe(100);
  });

  it('reaches the limit at 100%', () => {
    expect(isLimitReached(usage(99, 100))).toBe(false);
    expect(isLimitReached(usage(100, 100))).toBe(true);
    expect(isLimitReached(usage(101, 100))).toBe(true);
    expect(isLimitReached(usage(10 ** 9, null))).toBe(false);
  });

  it('shows the modal at >=100% active-alias usage only when overage is not usable', () => {
    expect(shouldShowPlanLimitModal({ max_active_aliases: usage(100, 100) })).toBe(true);
    expect(shouldShowPlanLimitModal({ max_active_aliases: usage(99, 100) })).toBe(false);
    expect(shouldShowPlanLimitModal({ max_active_aliases: usage(100, 100, true) })).toBe(false);
    expect(shouldShowPlanLimitModal({ max_aliases: usage(100, 100) })).toBe(false);
    expect(shouldShowPlanLimitModal({})).toBe(false);
  });

  it("titles the modal with the spec's wording and links", () => {
    expect(PLAN_LIMIT_MODAL.title).toBe("You've hit your plan's limit for creating links");
    expect(PLAN_LIMIT_MODAL.hint).toBe(
      'Turn on overages or upgrade your plan to continue shortening links.',
    );
    expect(PLAN_LIMIT_MODAL.links).toEqual([
      { route: 'settings.usage', label: 'Manage Overages' },
      { route: 'settings.subscription', label: 'Upgrade Your Plan' },
    ]);
  });

  it('charges overage at 2 per 100 units over the limit, pro-rated', () => {
    expect(overageChargeMinor(usage(1100, 1000))).toBe(200); // 100 over → $2.00
    expect(overageChargeMinor(usage(1050, 1000))).toBe(100); // 50 over → $1.00
    expect(overageChargeMinor(usage(1001, 1000))).toBe(2); // 1 over → $0.02
    expect(overageChargeMinor(usage(1000, 1000))).toBe(0);
    expect(overageChargeMinor(usage(5000, null))).toBe(0);
    expect(overageChargeMinor(usage(1100, 1000), 'JPY')).toBe(2);
  });

  it('prices units over in minor units, pro-rated per unit and rounded half up', () => {
    expect(overageAmountMinor(0)).toBe(0);
    expect(overageAmountMinor(1)).toBe(2); // $0.02
    expect(overageAmountMinor(99)).toBe(198);
    expect(overageAmountMinor(100)).toBe(200); // exactly one block: $2.00
    expect(overageAmountMinor(150)).toBe(300); // pro-rated, not two blocks
    expect(overageAmountMinor(1_234_567)).toBe(2_469_134);
    expect(overageAmountMinor(100, 'EUR')).toBe(200);
    // No minor units: ¥2 per 100, so 25 units are ¥0.5, rounded half up to ¥1; 24 to ¥0.
    expect(overageAmountMinor(25, 'JPY')).toBe(1);
    expect(overageAmountMinor(24, 'JPY')).toBe(0);
    expect(overageAmountMinor(100, 'JPY')).toBe(2);
    // Three-digit currencies: 100 units are 2.000 KWD.
    expect(overageAmountMinor(100, 'KWD')).toBe(2000);
    expect(() => overageAmountMinor(-1)).toThrow(RangeError);
    expect(() => overageAmountMinor(1.5)).toThrow(RangeError);
  });
});
