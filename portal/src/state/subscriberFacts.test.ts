import { describe, expect, it } from 'vitest';
import { subscriptionRow, TEST_PLANS } from '../test/world.ts';
import { currentAndFuture, freePlanFeatures, personalFeatures } from './subscriberFacts.ts';

const NOW = '2026-11-22T12:00:00Z';

describe('currentAndFuture', () => {
  it('takes the newest started, unended subscription as current', () => {
    const rows = [
      subscriptionRow({ id: 'newest', period_starts_at: '2026-11-01T00:00:00Z' }),
      subscriptionRow({ id: 'older', period_starts_at: '2026-01-01T00:00:00Z' }),
    ];
    expect(currentAndFuture(rows, NOW).current?.id).toBe('newest');
  });

  it('skips an ended one, keeps one ending later (grace period)', () => {
    const ended = subscriptionRow({ id: 'ended', ends_at: '2026-11-01T00:00:00Z' });
    const grace = subscriptionRow({ id: 'grace', ends_at: '2026-12-01T00:00:00Z' });
    expect(currentAndFuture([ended], NOW).current).toBeNull();
    expect(currentAndFuture([ended, grace], NOW).current?.id).toBe('grace');
  });

  it('names the soonest scheduled subscription as the future one (a pending downgrade)', () => {
    const rows = [
      subscriptionRow({ id: 'later', period_starts_at: '2027-06-01T00:00:00Z' }),
      subscriptionRow({ id: 'sooner', period_starts_at: '2027-01-01T00:00:00Z' }),
      subscriptionRow({ id: 'now', period_starts_at: '2026-10-01T00:00:00Z' }),
    ];
    const { current, future } = currentAndFuture(rows, NOW);
    expect(current?.id).toBe('now');
    expect(future?.id).toBe('sooner');
  });
});

describe('personalFeatures', () => {
  it("joins the account's own features and its plan price's", () => {
    const current = subscriptionRow({ price: { features: ['use_tags', 'use_api'] } });
    expect(
      personalFeatures({ features: ['support_teams', 'use_api'] }, current, TEST_PLANS),
    ).toEqual(['support_teams', 'use_api', 'use_tags']);
  });

  it("falls back to the free plan's (yearly) price without a priced subscription", () => {
    expect(freePlanFeatures(TEST_PLANS)).toEqual(['create_tiny_url']);
    expect(personalFeatures({ features: [] }, null, TEST_PLANS)).toEqual(['create_tiny_url']);
    expect(personalFeatures(null, subscriptionRow({ price: null }), TEST_PLANS)).toEqual([
      'create_tiny_url',
    ]);
  });
});
