import { describe, expect, it } from 'vitest';
import type { SubscriberFacts, SubscriptionFacts } from './subscriptions.ts';
import {
  isActive,
  isEmailVerified,
  isFree,
  isIncomplete,
  isOnGracePeriod,
  isOnTrial,
  isPastDue,
  isPastDueTrialUser,
  isSubscribed,
  isVerifiedOrSubscribed,
  needsAction,
  nextRenewal,
  pastDueAllowedRoutes,
  pastDueRedirect,
  pendingDowngrade,
  remainingTrialDays,
} from './subscriptions.ts';

const NOW = '2025-03-10T12:00:00.000Z';

function subscription(overrides: Partial<SubscriptionFacts> = {}): SubscriptionFacts {
  return {
    name: 'pro',
    interval: 'yearly',
    ends_at: null,
    trial_ends_at: null,
    period_starts_at: '2025-03-01T00:00:00.000Z',
    billing_status: 'active',
    updated_at: '2025-03-01T00:00:00.000Z',
    ...overrides,
  };
}

function user(
  current: SubscriptionFacts | null,
  overrides: Partial<SubscriberFacts> = {},
): SubscriberFacts {
  return {
    email_verified_at: null,
    subscriptions: { current, future: null },
    ...overrides,
  };
}

describe('subscription facts (app-shell 3)', () => {
  it('is active when no end date is set', () => {
    expect(isActive(subscription())).toBe(true);
    expect(isActive(subscription({ ends_at: '2025-04-01T00:00:00Z' }))).toBe(false);
  });

  it('is on trial while the trial end is in the future', () => {
    expect(isOnTrial(subscription({ trial_ends_at: '2025-03-10T12:00:01Z' }), NOW)).toBe(true);
    expect(isOnTrial(subscription({ trial_ends_at: NOW }), NOW)).toBe(false);
    expect(isOnTrial(subscription(), NOW)).toBe(false);
  });

  it('is in the grace period when ended but the end date is still ahead', () => {
    expect(isOnGracePeriod(subscription({ ends_at: '2025-03-11T00:00:00Z' }), NOW)).toBe(true);
    expect(isOnGracePeriod(subscription({ ends_at: '2025-03-09T00:00:00Z' }), NOW)).toBe(false);
    expect(isOnGracePeriod(subscription({ ends_at: null }), NOW)).toBe(false);
  });

  it('reads past due, incomplete and free from billing status and name', () => {
    expect(isPastDue(subscription({ billing_status: 'past_due' }))).toBe(true);
    expect(isPastDue(subscription())).toBe(false);
    expect(isIncomplete(subscription({ billing_status: 'incomplete' }))).toBe(true);
    expect(isIncomplete(subscription())).toBe(false);
    expect(isFree(subscription({ name: 'free' }))).toBe(true);
    expect(isFree(subscription())).toBe(false);
  });

  it('needs action when active and past due or incomplete', () => {
    expect(needsAction(subscription({ billing_status: 'past_due' }))).toBe(true);
    expect(needsAction(subscription({ billing_status: 'incomplete' }))).toBe(true);
    expect(needsAction(subscription())).toBe(false);
    expect(
      needsAction(subscription({ billing_status: 'past_due', ends_at: '2025-04-01T00:00:00Z' })),
    ).toBe(false);
  });

  it('renews one month or one year after the last update', () => {
    expect(nextRenewal(subscription({ interval: 'monthly' })).toISOString()).toBe(
      '2025-04-01T00:00:00.000Z',
    );
    expect(nextRenewal(subscription({ interval: 'yearly' })).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    // A month later than 31 January is the end of February, not early March.
    expect(
      nextRenewal(
        subscription({ interval: 'monthly', updated_at: '2024-01-31T08:00:00Z' }),
      ).toISOString(),
    ).toBe('2024-02-29T08:00:00.000Z');
  });

  it('counts remaining trial days, rounding part days up', () => {
    expect(remainingTrialDays(subscription({ trial_ends_at: '2025-03-11T12:00:00Z' }), NOW)).toBe(
      1,
    );
    expect(remainingTrialDays(subscription({ trial_ends_at: '2025-03-11T12:00:01Z' }), NOW)).toBe(
      2,
    );
    expect(remainingTrialDays(subscription({ trial_ends_at: '2025-03-17T12:00:00Z' }), NOW)).toBe(
      7,
    );
    expect(remainingTrialDays(subscription({ trial_ends_at: '2025-03-01T00:00:00Z' }), NOW)).toBe(
      0,
    );
    expect(remainingTrialDays(subscription(), NOW)).toBeNull();
  });

  it('rejects malformed instants instead of guessing', () => {
    expect(() => isOnTrial(subscription({ trial_ends_at: 'soon' }), NOW)).toThrow(RangeError);
  });
});

describe('subscriber facts (app-shell 4)', () => {
  it('is subscribed only when logged in with a current non-free subscription', () => {
    expect(isSubscribed(user(subscription()))).toBe(true);
    expect(isSubscribed(user(subscription({ name: 'free' })))).toBe(false);
    expect(isSubscribed(user(null))).toBe(false);
    expect(isSubscribed(null)).toBe(false);
  });

  it('is verified-or-subscribed when the e-mail is verified or the user is subscribed', () => {
    const verifiedFree = user(subscription({ name: 'free' }), {
      email_verified_at: '2025-01-01T00:00:00Z',
    });
    expect(isEmailVerified(verifiedFree)).toBe(true);
    expect(isVerifiedOrSubscribed(verifiedFree)).toBe(true);
    expect(isVerifiedOrSubscribed(user(subscription()))).toBe(true);
    expect(isVerifiedOrSubscribed(user(subscription({ name: 'free' })))).toBe(false);
    expect(isVerifiedOrSubscribed(null)).toBe(false);
  });

  it('is a past-due trial user when past due with the trial end equal to the period start', () => {
    const trialEndedUnpaid = subscription({
      billing_status: 'past_due',
      trial_ends_at: '2025-03-01T00:00:00.000Z',
      period_starts_at: '2025-03-01T00:00:00Z',
    });
    expect(isPastDueTrialUser(user(trialEndedUnpaid))).toBe(true);
    expect(
      isPastDueTrialUser(user({ ...trialEndedUnpaid, period_starts_at: '2025-03-01T00:00:01Z' })),
    ).toBe(false);
    expect(isPastDueTrialUser(user({ ...trialEndedUnpaid, billing_status: 'active' }))).toBe(false);
    expect(isPastDueTrialUser(user({ ...trialEndedUnpaid, trial_ends_at: null }))).toBe(false);
    expect(isPastDueTrialUser(null)).toBe(false);
  });

  it('treats a scheduled future subscription as a pending downgrade', () => {
    const future = subscription({ name: 'basic' });
    expect(
      pendingDowngrade({ ...user(subscription()), subscriptions: { current: null, future } }),
    ).toBe(future);
    expect(pendingDowngrade(user(subscription()))).toBeNull();
    expect(pendingDowngrade(null)).toBeNull();
  });
});

describe('past-due routing (app-shell 4)', () => {
  const pastDueTrial = user(
    subscription({
      billing_status: 'past_due',
      trial_ends_at: '2025-03-01T00:00:00Z',
      period_starts_at: '2025-03-01T00:00:00Z',
    }),
  );
  const pastDuePaying = user(subscription({ billing_status: 'past_due' }));

  it('sends a past-due trial user to subscription.past_due except from pricing, cookies, privacy and terms', () => {
    for (const route of [
      'signup.pricing',
      'cookies',
      'privacy',
      'terms',
      'subscription.past_due',
    ]) {
      expect(pastDueRedirect(pastDueTrial, route)).toBeNull();
    }
    for (const route of ['homepage', 'settings.profile', 'settings.invoices']) {
      expect(pastDueRedirect(pastDueTrial, route)).toBe('subscription.past_due');
    }
  });

  it('widens the allowed routes for other past-due users to profile, security, branded domains, API, orders, payment method and invoices', () => {
    expect(pastDueAllowedRoutes(pastDuePaying)).toEqual([
      'subscription.past_due',
      'signup.pricing',
      'cookies',
      'privacy',
      'terms',
      'settings.profile',
      'settings.security',
      'settings.brandedDomains',
      'settings.api',
      'shopping-cart.orders',
      'settings.paymentMethod',
      'settings.invoices',
    ]);
    expect(pastDueRedirect(pastDuePaying, 'settings.invoices')).toBeNull();
    expect(pastDueRedirect(pastDuePaying, 'homepage')).toBe('subscription.past_due');
  });

  it('does not restrict users who are not past due, nor guests', () => {
    expect(pastDueAllowedRoutes(user(subscription()))).toBeNull();
    expect(pastDueRedirect(user(subscription()), 'homepage')).toBeNull();
    expect(pastDueRedirect(null, 'homepage')).toBeNull();
  });
});
