/**
 * Subscription facts derived as app-shell section 3 and 4 define them. Every rule that
 * depends on time takes `now`.
 */
import type { BillingInterval } from './constants.ts';
import type { Instant } from './time.ts';
import { addUtcMonths, addUtcYears, DAY_MS, toEpochMs, toEpochMsOrNull } from './time.ts';

export const SUBSCRIPTION_TYPES = ['default', 'addon', 'shopping-cart'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

export const FREE_PLAN_NAME = 'free';

/** The subscription fields the rules read; database rows and API answers both fit. */
export interface SubscriptionFacts {
  name: string;
  interval: BillingInterval;
  ends_at: Instant | null;
  trial_ends_at: Instant | null;
  period_starts_at: Instant | null;
  billing_status: string | null;
  updated_at: Instant;
}

/** A logged-in user's subscription facts; a guest is `null`. */
export interface SubscriberFacts {
  email_verified_at: Instant | null;
  subscriptions: {
    current: SubscriptionFacts | null;
    /** A scheduled future subscription: a pending downgrade. */
    future: SubscriptionFacts | null;
  };
}

/** Active: no end date is set. */
export function isActive(subscription: SubscriptionFacts): boolean {
  return subscription.ends_at == null;
}

/** On trial: the trial end is in the future. */
export function isOnTrial(subscription: SubscriptionFacts, now: Instant): boolean {
  const trialEnd = toEpochMsOrNull(subscription.trial_ends_at);
  return trialEnd != null && trialEnd > toEpochMs(now);
}

/** Grace period: ended (an end date is set), but the end date is still ahead. */
export function isOnGracePeriod(subscription: SubscriptionFacts, now: Instant): boolean {
  const end = toEpochMsOrNull(subscription.ends_at);
  return end != null && end > toEpochMs(now);
}

export function isPastDue(subscription: SubscriptionFacts): boolean {
  return subscription.billing_status === 'past_due';
}

export function isIncomplete(subscription: SubscriptionFacts): boolean {
  return subscription.billing_status === 'incomplete';
}

export function isFree(subscription: SubscriptionFacts): boolean {
  return subscription.name === FREE_PLAN_NAME;
}

/** Needs action: active and (past due or incomplete). */
export function needsAction(subscription: SubscriptionFacts): boolean {
  return isActive(subscription) && (isPastDue(subscription) || isIncomplete(subscription));
}

/** Next renewal: last update plus one month or one year, by the billing interval. */
export function nextRenewal(subscription: SubscriptionFacts): Date {
  return subscription.interval === 'monthly'
    ? addUtcMonths(subscription.updated_at, 1)
    : addUtcYears(subscription.updated_at, 1);
}

/**
 * Whole days left in the trial, rounded up so that "1 day" means at most 24 hours and
 * "2 days" more than 24 hours; 0 once the trial has ended, null when there is no trial.
 */
export function remainingTrialDays(subscription: SubscriptionFacts, now: Instant): number | null {
  const trialEnd = toEpochMsOrNull(subscription.trial_ends_at);
  if (trialEnd == null) return null;
  return Math.max(0, Math.ceil((trialEnd - toEpochMs(now)) / DAY_MS));
}

/** Subscribed: logged in with a current non-free subscription. */
export function isSubscribed(user: SubscriberFacts | null): boolean {
  const current = user?.subscriptions.current;
  return current != null && !isFree(current);
}

export function isEmailVerified(user: SubscriberFacts | null): boolean {
  return user?.email_verified_at != null;
}

/** Verified-or-subscribed: e-mail verified or subscribed. */
export function isVerifiedOrSubscribed(user: SubscriberFacts | null): boolean {
  return isEmailVerified(user) || isSubscribed(user);
}

/** A past-due trial user: past due with the trial end equal to the period start. */
export function isPastDueTrialUser(user: SubscriberFacts | null): boolean {
  const current = user?.subscriptions.current;
  if (current == null || !isPastDue(current)) return false;
  const trialEnd = toEpochMsOrNull(current.trial_ends_at);
  const periodStart = toEpochMsOrNull(current.period_starts_at);
  return trialEnd != null && trialEnd === periodStart;
}

/** A scheduled future subscription is a pending downgrade. */
export function pendingDowngrade(user: SubscriberFacts | null): SubscriptionFacts | null {
  return user?.subscriptions.future ?? null;
}

export const PAST_DUE_ROUTE = 'subscription.past_due';

/** Routes a past-due trial user may still open (named routes of app-shell section 2). */
export const PAST_DUE_TRIAL_ALLOWED_ROUTES = [
  PAST_DUE_ROUTE,
  'signup.pricing',
  'cookies',
  'privacy',
  'terms',
] as const;

/** Routes any other past-due user may still open: the above widened by account and billing pages. */
export const PAST_DUE_ALLOWED_ROUTES = [
  ...PAST_DUE_TRIAL_ALLOWED_ROUTES,
  'settings.profile',
  'settings.security',
  'settings.brandedDomains',
  'settings.api',
  'shopping-cart.orders',
  'settings.paymentMethod',
  'settings.invoices',
] as const;

/** The routes a user may open, or null when no past-due restriction applies. */
export function pastDueAllowedRoutes(user: SubscriberFacts | null): readonly string[] | null {
  const current = user?.subscriptions.current;
  if (current == null || !isPastDue(current)) return null;
  return isPastDueTrialUser(user) ? PAST_DUE_TRIAL_ALLOWED_ROUTES : PAST_DUE_ALLOWED_ROUTES;
}

/** Where the past-due guard sends a user heading to `routeName`, or null to let them pass. */
export function pastDueRedirect(
  user: SubscriberFacts | null,
  routeName: string,
): typeof PAST_DUE_ROUTE | null {
  const allowed = pastDueAllowedRoutes(user);
  return allowed == null || allowed.includes(routeName) ? null : PAST_DUE_ROUTE;
}
