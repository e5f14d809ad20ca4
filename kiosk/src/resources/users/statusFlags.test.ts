import { describe, expect, it } from 'vitest';
import { profileChanges, statusFromToggles } from './statusFlags.ts';

describe('statusFromToggles', () => {
  it('sets bit 4 for no affiliate, 8 for no mailings, 16 for hide invoices', () => {
    expect(statusFromToggles({})).toBe(0);
    expect(statusFromToggles({ no_affiliate: true })).toBe(4);
    expect(statusFromToggles({ no_mailings: true })).toBe(8);
    expect(statusFromToggles({ hide_invoices: true })).toBe(16);
    expect(statusFromToggles({ no_affiliate: true, no_mailings: false, hide_invoices: true })).toBe(
      20,
    );
  });
});

describe('profileChanges', () => {
  it('keeps the profile columns only, with the toggles folded into status', () => {
    expect(
      profileChanges({
        id: 'u1',
        email: 'ada@example.com',
        name: '  Ada ',
        plan: 'pro',
        status: 8,
        no_affiliate: true,
        no_mailings: false,
        hide_invoices: false,
        is_developer: false,
        is_survey_enabled: true,
        teams: [],
      }),
    ).toEqual({ name: 'Ada', status: 4, is_developer: false, is_survey_enabled: true });
  });
});
