import { describe, expect, it } from 'vitest';
import { promotionModalToShow } from './promotions.ts';

describe('one promotion modal at a time', () => {
  const none = { reminder: null, saleVisible: false, trialPromotionVisible: false } as const;

  it('puts the hard reminder first, then the sale, the trial promotion, the soft reminder', () => {
    expect(
      promotionModalToShow({ reminder: 'hard', saleVisible: true, trialPromotionVisible: true }),
    ).toBe('trial_reminder');
    expect(
      promotionModalToShow({ reminder: 'soft', saleVisible: true, trialPromotionVisible: true }),
    ).toBe('sale');
    expect(promotionModalToShow({ ...none, reminder: 'soft', trialPromotionVisible: true })).toBe(
      'trial_promotion',
    );
    expect(promotionModalToShow({ ...none, reminder: 'soft' })).toBe('trial_reminder');
    expect(promotionModalToShow(none)).toBeNull();
  });
});
