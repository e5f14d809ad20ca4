import { describe, expect, it } from 'vitest';
import type { SubscriptionFacts } from './subscriptions.ts';
import {
  isTrialPromotionVisible,
  isTrialReminderVisible,
  trialReminder,
  trialsAllowed,
} from './trial.ts';

const NOW = '2025-03-10T12:00:00Z';

describe('free-trial promotion (app-shell 4)', () => {
  it('shows when trials are allowed and it was never closed', () => {
    expect(isTrialPromotionVisible({ trialsAllowed: true, closedAt: null, now: NOW })).toBe(true);
    expect(isTrialPromotionVisible({ trialsAllowed: false, closedAt: null, now: NOW })).toBe(false);
  });

  it('stays hidden for 24 hours after being closed and reappears at 24 hours', () => {
    const visibleIfClosedAt = (closedAt: string) =>
      isTrialPromotionVisible({ trialsAllowed: true, closedAt, now: NOW });
    expect(visibleIfClosedAt('2025-03-10T11:00:00Z')).toBe(false);
    expect(visibleIfClosedAt('2025-03-09T12:00:00.001Z')).toBe(false);
    expect(visibleIfClosedAt('2025-03-09T12:00:00Z')).toBe(true);
    expect(visibleIfClosedAt('2025-03-01T00:00:00Z')).toBe(true);
  });
});

describe('trial reminders (app-shell 4 and 9)', () => {
  const trialEndingAt = (trial_ends_at: string | null): SubscriptionFacts => ({
    name: 'pro',
    interval: 'monthly',
    ends_at: null,
    trial_ends_at,
    period_starts_at: '2025-03-01T00:00:00Z',
    billing_status: 'trialing',
    updated_at: '2025-03-01T00:00:00Z',
  });
  const reminder = (trialEnd: string | null, hasPaymentMethod = false) =>
    trialReminder({ subscription: trialEndingAt(trialEnd), hasPaymentMethod, now: NOW });

  it('is hard with 1 day or less left and no payment method', () => {
    expect(reminder('2025-03-10T12:00:01Z')).toBe('hard');
    expect(reminder('2025-03-11T12:00:00Z')).toBe('hard');
  });

  it('is soft with more than 1 and at most 7 days left', () => {
    expect(reminder('2025-03-11T12:00:01Z')).toBe('soft');
    expect(reminder('2025-03-17T12:00:00Z')).toBe('soft');
  });

  it('is silent beyond 7 days, after the trial, without a trial, or with a payment method', () => {
    expect(reminder('2025-03-17T12:00:01Z')).toBeNull();
    expect(reminder('2025-03-10T12:00:00Z')).toBeNull();
    expect(reminder(null)).toBeNull();
    expect(reminder('2025-03-11T00:00:00Z', true)).toBeNull();
    expect(trialReminder({ subscription: null, hasPaymentMethod: false, now: NOW })).toBeNull();
  });
});

describe('reminder closure and trial eligibility', () => {
  it('keeps a closed reminder away for exactly 24 hours', () => {
    const visible = (closedAt: string | null) =>
      isTrialReminderVisible({ reminder: 'hard', closedAt, now: NOW });
    expect(visible(null)).toBe(true);
    expect(visible('2025-03-09T12:00:00.001Z')).toBe(false);
    expect(visible('2025-03-09T12:00:00Z')).toBe(true);
    expect(isTrialReminderVisible({ reminder: null, closedAt: null, now: NOW })).toBe(false);
  });

  it('allows trials to someone who never had a paid plan while a plan offers one', () => {
    const base = {
      signedIn: true,
      subscribed: false,
      pastDue: false,
      planHistory: ['free'],
      plans: [
        { trial_available: false, trial_days: 0 },
        { trial_available: true, trial_days: 7 },
      ],
    };
    expect(trialsAllowed(base)).toBe(true);
    expect(trialsAllowed({ ...base, signedIn: false })).toBe(false);
    expect(trialsAllowed({ ...base, subscribed: true })).toBe(false);
    expect(trialsAllowed({ ...base, pastDue: true })).toBe(false);
    expect(trialsAllowed({ ...base, planHistory: ['free', 'pro'] })).toBe(false);
    expect(trialsAllowed({ ...base, plans: [{ trial_available: true, trial_days: 0 }] })).toBe(
      false,
    );
  });
});
