import { describe, expect, it } from 'vitest';
import { domainChanges, verifiedFormat, verifiedParse } from './domainFlags.ts';

const now = new Date('2026-11-22T10:00:00Z');
const flagsOff = {
  allow_for_guests: false,
  guest_can_use_custom_alias: false,
  require_email_verification: false,
  subscribed_only: false,
  is_blocked: false,
  is_disabled: false,
};

describe('domainChanges', () => {
  it('saves the flags only, never the view’s other columns', () => {
    const record = {
      ...flagsOff,
      id: 'd1',
      domain: 'x.test',
      links_count: 4,
      verification_status: 'pending',
    };
    expect(domainChanges({ ...record, is_blocked: true }, record, now)).toEqual({
      ...flagsOff,
      is_blocked: true,
    });
  });

  it('verifies a domain with the time, and takes verification back to pending', () => {
    const pending = { ...flagsOff, verification_status: 'pending' };
    const verified = { ...flagsOff, verification_status: 'verified' };
    expect(domainChanges(verified, pending, now)).toEqual({
      ...flagsOff,
      verification_status: 'verified',
      verified_at: '2026-11-22T10:00:00.000Z',
    });
    expect(domainChanges(pending, verified, now)).toEqual({
      ...flagsOff,
      verification_status: 'pending',
      verified_at: null,
    });
  });

  it('shows verification as a toggle', () => {
    expect([
      verifiedFormat('verified'),
      verifiedFormat('failed'),
      verifiedFormat('pending'),
    ]).toEqual([true, false, false]);
    expect([verifiedParse(true), verifiedParse(false)]).toEqual(['verified', 'pending']);
  });
});
