import { describe, expect, it } from 'vitest';
import { adsShown } from './ads.ts';

describe('ads', () => {
  const consented = {
    adsEnabled: true,
    subscribed: false,
    cookiesAccepted: true,
    strictPrivate: null,
  };

  it('shows them to an unsubscribed visitor who accepted cookies and did not opt out', () => {
    expect(adsShown(consented)).toBe(true);
    expect(adsShown({ ...consented, strictPrivate: false })).toBe(true);
  });

  it('never to subscribers, without consent, after an opt-out, or with ads off', () => {
    expect(adsShown({ ...consented, subscribed: true })).toBe(false);
    expect(adsShown({ ...consented, cookiesAccepted: false })).toBe(false);
    expect(adsShown({ ...consented, strictPrivate: true })).toBe(false);
    expect(adsShown({ ...consented, adsEnabled: false })).toBe(false);
  });
});
