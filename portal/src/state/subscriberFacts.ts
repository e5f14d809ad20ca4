import { BILLING_INTERVALS, type BillingInterval } from '@shortlane/shared/constants.ts';
import type { SubscriptionFacts } from '@shortlane/shared/subscriptions.ts';
import { toEpochMs, toEpochMsOrNull, type Instant } from '@shortlane/shared/time.ts';
import type { Account } from '../data/account-query.ts';
import type { PlanRow } from '../data/plans-query.ts';
import type { SubscriptionRow } from '../data/subscriptions-query.ts';

export interface CurrentAndFuture {
  current: SubscriptionRow | null;
  /** A subscription scheduled to start later: a pending downgrade. */
  future: SubscriptionRow | null;
}

function isInterval(value: string): value is BillingInterval {
  return (BILLING_INTERVALS as readonly string[]).includes(value);
}

/**
 * Splits an account's subscriptions (newest first) as the database's own rule does
 * (app.account_price_id): current = started and not ended, newest first; future = starting
 * later, soonest first.
 */
export function currentAndFuture(rows: readonly SubscriptionRow[], now: Instant): CurrentAndFuture {
  const at = toEpochMs(now);
  const startsLater = (row: SubscriptionRow) => (toEpochMsOrNull(row.period_starts_at) ?? 0) > at;
  const notEnded = (row: SubscriptionRow) => (toEpochMsOrNull(row.ends_at) ?? Infinity) > at;
  const current = rows.find((row) => !startsLater(row) && notEnded(row)) ?? null;
  const future =
    rows
      .filter(startsLater)
      .sort((a, b) => toEpochMs(a.period_starts_at!) - toEpochMs(b.period_starts_at!))[0] ?? null;
  return { current, future };
}

export function subscriptionFacts(row: SubscriptionRow): SubscriptionFacts {
  return {
    name: row.name,
    interval: isInterval(row.interval) ? row.interval : 'yearly',
    ends_at: row.ends_at,
    trial_ends_at: row.trial_ends_at,
    period_starts_at: row.period_starts_at,
    billing_status: row.billing_status,
    updated_at: row.updated_at,
  };
}

/** The free plan's features: what an account without a priced subscription gets. */
export function freePlanFeatures(plans: readonly PlanRow[]): readonly string[] {
  const prices = plans.find((plan) => plan.name === 'free')?.prices ?? [];
  const price = prices.find((candidate) => candidate.interval === 'yearly') ?? prices[0];
  return price?.features ?? [];
}

/**
 * The personal account's features: its own list plus its plan price's (the current
 * subscription's, else the free plan's), as app.account_has_feature resolves them. Only for
 * display: the database checks the same rule on every write.
 */
export function personalFeatures(
  account: Pick<Account, 'features'> | null,
  current: SubscriptionRow | null,
  plans: readonly PlanRow[],
): readonly string[] {
  const priceFeatures = current?.price?.features ?? freePlanFeatures(plans);
  return [...new Set([...(account?.features ?? []), ...priceFeatures])];
}
