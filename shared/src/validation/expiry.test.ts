import { describe, expect, it } from 'vitest';
import {
  defaultAliasExpiration,
  expiryError,
  expiryWindow,
  formatUtcMinute,
  parseExpiry,
  toUtcIso,
} from './expiry.ts';

const NOW = '2025-06-15T12:00:30Z';

describe('expiry window (link-creation 5 and 9)', () => {
  it('refuses 4 minutes from now and accepts 6, compared to the minute', () => {
    expect(expiryError('2025-06-15T12:04:30Z', { now: NOW })).toBe('expiry_too_soon');
    expect(expiryError('2025-06-15T12:06:30Z', { now: NOW })).toBeNull();
  });

  it('wants a minute later than now + 5 minutes', () => {
    // now + 5 min = 12:05:30, so 12:05 is not later; 12:06 is.
    expect(expiryError('2025-06-15T12:05:59Z', { now: NOW })).toBe('expiry_too_soon');
    expect(expiryError('2025-06-15T12:06:00Z', { now: NOW })).toBeNull();
    expect(expiryWindow({ now: NOW }).earliest.toISOString()).toBe('2025-06-15T12:06:00.000Z');
  });

  it('refuses the past', () => {
    expect(expiryError('2025-06-14T12:00:00Z', { now: NOW })).toBe('expiry_too_soon');
  });

  it('selects dates from today to 5 years ahead', () => {
    expect(expiryWindow({ now: NOW })).toMatchObject({
      minDate: '2025-06-15',
      maxDate: '2030-06-15',
    });
    expect(expiryError('2030-06-15T23:59:00Z', { now: NOW })).toBeNull();
    expect(expiryError('2030-06-16T00:00:00Z', { now: NOW })).toBe('expiry_too_far');
  });

  it("uses the user's local dates", () => {
    // 23:30 UTC on 15 June is already 16 June in UTC+2.
    const clock = { now: '2025-06-15T23:30:00Z', utcOffsetMinutes: 120 };
    expect(expiryWindow(clock)).toMatchObject({ minDate: '2025-06-16', maxDate: '2030-06-16' });
    expect(expiryError('2030-06-16T21:59:00Z', clock)).toBeNull(); // 23:59 local
    expect(expiryError('2030-06-16T22:00:00Z', clock)).toBe('expiry_too_far'); // 17 June local
  });
});

describe('expiry values', () => {
  it('reads a UTC ISO timestamp or YYYY-MM-DDTHH:mm as UTC', () => {
    expect(parseExpiry('2025-07-01T10:15:00.000Z')?.toISOString()).toBe('2025-07-01T10:15:00.000Z');
    expect(parseExpiry('2025-07-01T10:15')?.toISOString()).toBe('2025-07-01T10:15:00.000Z');
    expect(parseExpiry('2025-07-01T12:15:00+02:00')?.toISOString()).toBe(
      '2025-07-01T10:15:00.000Z',
    );
  });

  it('refuses impossible or ambiguous values', () => {
    for (const value of [
      '2025-02-30T10:00',
      '2025-02-29T10:00:00Z',
      '2025-07-01T24:00',
      '2025-07-01T10:15:00',
      '2025-07-01',
      'tomorrow',
      '',
    ]) {
      expect(parseExpiry(value), value).toBeNull();
    }
    expect(parseExpiry('2024-02-29T10:00')?.toISOString()).toBe('2024-02-29T10:00:00.000Z');
  });

  it('sends UTC', () => {
    expect(toUtcIso(new Date(Date.UTC(2025, 6, 1, 10, 15)))).toBe('2025-07-01T10:15:00.000Z');
    expect(formatUtcMinute('2025-07-01T12:15:42+02:00')).toBe('2025-07-01T10:15');
  });

  it('computes the default expiration from the plan alias lifetime', () => {
    expect(defaultAliasExpiration(NOW, 'P90D')).toBe('2025-09-13T12:00');
    expect(defaultAliasExpiration(NOW, '1 year')).toBe('2026-06-15T12:00');
    expect(defaultAliasExpiration(NOW, null)).toBeNull();
    expect(() => defaultAliasExpiration(NOW, 'forever')).toThrow(RangeError);
  });
});
