/** Free-trial promotion and trial reminders (app-shell 4 and 9). */
import { TRIAL_PROMOTION_SNOOZE_MS, TRIAL_REMINDER_DAYS } from './constants.ts';
import type { SubscriptionFacts } from './subscriptions.ts';
import { isOnTrial, remainingTrialDays } from './subscriptions.ts';
import type { Instant } from './time.ts';
import { toEpochMs, toEpochMsOrNull } from './time.ts';

/** The promotion shows if trials are allowed and it was not closed in the last 24 hours. */
export function isTrialPromotionVisible(input: {
  trialsAllowed: boolean;
  closedAt: Instant | null;
  now: Instant;
}): boolean {
  if (!input.trialsAllowed) return false;
  const closedAt = toEpochMsOrNull(input.closedAt);
  return closedAt == null || toEpochMs(input.now) - closedAt >= TRIAL_PROMOTION_SNOOZE_MS;
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
