/** Credits, usage limits and overage (app-shell 3, 5, 9; link-creation 4). */
import { ACTIVE_ALIAS_LIMIT_MODAL_PERCENT, DEFAULT_CURRENCY, OVERAGE_PRICE } from './constants.ts';
import { minorUnitsPerMajor } from './plans.ts';

export const NOT_ENOUGH_CREDITS_MESSAGE = 'Not enough credits for this operation';

/** The user's `limits`: limit.web (null when there is none) and used.web. */
export interface CreditLimits {
  limit: { web: number | null };
  used: { web: number };
}

export type CreditsCheck =
  | { ok: false; code: 'not_enough_credits'; message: string; cost: number; remaining: number }
  | {
      ok: true;
      /** The credits the confirmation modal states will be used. */
      creditsToUse: number;
      /** Credits left before the operation; null when there is no limit. */
      remaining: number | null;
    };

/**
 * Before a costly operation: if a limit exists and the operation costs credits, the
 * remaining credits (limit minus used web) must cover the cost; otherwise a confirmation
 * states how many credits will be used.
 */
export function checkCredits(limits: CreditLimits, cost: number): CreditsCheck {
  if (!Number.isFinite(cost) || cost < 0) throw new RangeError(`Invalid credit cost: ${cost}`);
  const limit = limits.limit.web;
  const remaining = limit == null ? null : limit - limits.used.web;
  if (remaining != null && cost > 0 && remaining < cost) {
    return {
      ok: false,
      code: 'not_enough_credits',
      message: NOT_ENOUGH_CREDITS_MESSAGE,
      cost,
      remaining,
    };
  }
  return { ok: true, creditsToUse: cost, remaining };
}

/** One limit of the limits data. */
export interface LimitUsage {
  used: number;
  /** Null means unlimited. */
  limit: number | null;
  soft_limit: number | null;
  /** Whether overage is turned on and usable for this limit. */
  overage: boolean;
}

/** Limits data keyed by limit name (the plan option names, e.g. max_active_aliases). */
export type LimitsData = Readonly<Record<string, LimitUsage | undefined>>;

/** Usage in percent; null when unlimited. A zero limit counts as fully used. */
export function usagePercent(usage: LimitUsage): number | null {
  if (usage.limit == null) return null;
  if (usage.limit <= 0) return 100;
  return (usage.used / usage.limit) * 100;
}

export function isLimitReached(usage: LimitUsage): boolean {
  const percent = usagePercent(usage);
  return percent != null && percent >= ACTIVE_ALIAS_LIMIT_MODAL_PERCENT;
}

/**
 * The create popover shows the plan-limit modal instead when active-alias usage has reached
 * 100% and overage is not usable.
 */
export function shouldShowPlanLimitModal(limits: LimitsData): boolean {
  const activeAliases = limits.max_active_aliases;
  return activeAliases != null && isLimitReached(activeAliases) && !activeAliases.overage;
}

export const PLAN_LIMIT_MODAL = {
  title: "You've hit your plan's limit for creating links",
  hint: 'Turn on overages or upgrade your plan to continue shortening links.',
  links: [
    { route: 'settings.usage', label: 'Manage Overages' },
    { route: 'settings.subscription', label: 'Upgrade Your Plan' },
  ],
} as const;

/**
 * The charge for units over the limit, in minor units: 2 (major units of the currency) per 100
 * units, pro-rated per unit (150 units over cost 3.00, not 4.00) and rounded half up to the
 * nearest minor unit. The one pricing rule: the usage page's estimate and the amount the
 * overage-report function bills both come from here.
 */
export function overageAmountMinor(unitsOver: number, currency: string = DEFAULT_CURRENCY): number {
  if (!Number.isSafeInteger(unitsOver) || unitsOver < 0)
    throw new RangeError(`Invalid units over the limit: ${unitsOver}`);
  const pricePerBlockMinor = OVERAGE_PRICE.amount * minorUnitsPerMajor(currency);
  // Integer arithmetic: floor((units × price + half a block) / block) rounds half up exactly.
  return Math.floor(
    (unitsOver * pricePerBlockMinor + OVERAGE_PRICE.perUnits / 2) / OVERAGE_PRICE.perUnits,
  );
}

/** Overage charge in minor units of one limit's usage (nothing while within the limit). */
export function overageChargeMinor(usage: LimitUsage, currency: string = DEFAULT_CURRENCY): number {
  if (usage.limit == null) return 0;
  return overageAmountMinor(Math.max(0, usage.used - usage.limit), currency);
}
