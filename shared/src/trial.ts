/** Free-trial promotion and trial reminders (app-shell 4 and 9). */
import { TRIAL_PROMOTION_SNOOZE_MS, TRIAL_REMINDER_DAYS } from './constants.ts';
import type { SubscriptionFacts } from './subscriptions.ts';
import { FREE_PLAN_NAME, isOnTrial, remainingTrialDays } from './subscriptions.ts';
import type { Instant } from './time.ts';
import { toEpochMs, toEpochMsOrNull } from './time.ts';

/** True while something closed at `closedAt` stays closed: less than 24 hours ago. */
export function closedRecently(closedAt: Instant | null, now: Instant): boolean {
  const at = toEpochMsOrNull(closedAt);
  return at != null && toEpochMs(now) - at < TRIAL_PROMOTION_SNOOZE_MS;
}

/** The promotion shows if trials are allowed and it was not closed in the last 24 hours. */
export function isTrialPromotionVisible(input: {
  trialsAllowed: boolean;
  closedAt: Instant | null;
  now: Instant;
}): boolean {
  return input.trialsAllowed && !closedRecently(input.closedAt, input.now);
}

/**
 * Trials are allowed to someone signed in, on no paid plan and not past due, who never had a paid
 * plan (a trial once per account, as the billing function decides), while some plan offers one.
 */
export function trialsAllowed(input: {
  signedIn: boolean;
  subscribed: boolean;
  pastDue: boolean;
  /** Names of every plan subscription the account ever had, free included. */
  planHistory: readonly string[];
  plans: readonly { trial_available: boolean; trial_days: number }[];
}): boolean {
  return (
    input.signedIn &&
    !input.subscribed &&
    !input.pastDue &&
    !input.planHistory.some((name) => name !== FREE_PLAN_NAME) &&
    input.plans.some((plan) => plan.trial_available && plan.trial_days > 0)
  );
}

export type TrialReminder = 'hard' | 'soft';

/**
 * For a trial without a payment method: hard at 1 day or less left, soft at more than 1 and
 * at most 7 days left; no reminder otherwise.
 */
export function trialReminder(input: {
  subscription: SubscriptionFacts | null;
  hasPaymentMethod: boolean;
  now: Instant;
}): TrialReminder | null {
  const { subscription, hasPaymentMethod, now } = input;
  if (subscription == null || hasPaymentMethod || !isOnTrial(subscription, now)) return null;
  const daysLeft = remainingTrialDays(subscription, now);
  if (daysLeft == null) return null;
  if (daysLeft <= TRIAL_REMINDER_DAYS.hardAtMost) return 'hard';
  if (daysLeft <= TRIAL_REMINDER_DAYS.softAtMost) return 'soft';
  return null;
}

/**
 * Whether a reminder shows, given when it was last closed: a closed reminder stays away for 24
 * hours. Where the closure time is kept decides the rest: the hard reminder's lives in session
 * storage (a new session shows it again at once), the soft one's in local storage.
 */
export function isTrialReminderVisible(input: {
  reminder: TrialReminder | null;
  closedAt: Instant | null;
  now: Instant;
}): boolean {
  return input.reminder != null && !closedRecently(input.closedAt, input.now);
}
