import { describe, expect, it } from 'vitest';
import {
  addDuration,
  addUtcMonths,
  addUtcYears,
  floorToMinute,
  parseDuration,
  toEpochMs,
  toEpochMsOrNull,
} from './time.ts';

describe('instants', () => {
  it('reads ISO strings and Dates alike', () => {
    expect(toEpochMs('1970-01-01T00:00:01Z')).toBe(1000);
    expect(toEpochMs(new Date(1000))).toBe(1000);
    expect(toEpochMsOrNull(null)).toBeNull();
    expect(toEpochMsOrNull(undefined)).toBeNull();
  });

  it('throws on a malformed instant', () => {
    expect(() => toEpochMs('not a date')).toThrow('Invalid instant: not a date');
    expect(() => toEpochMs(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('adds calendar months, clamping to the end of a shorter month', () => {
    expect(addUtcMonths('2025-01-15T10:00:00Z', 1).toISOString()).toBe('2025-02-15T10:00:00.000Z');
    expect(addUtcMonths('2025-01-31T10:00:00Z', 1).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addUtcMonths('2025-12-31T00:00:00Z', 2).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addUtcMonths('2025-03-31T00:00:00Z', -1).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  it('adds calendar years, turning 29 February into 28 February', () => {
    expect(addUtcYears('2024-02-29T00:00:00Z', 1).toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(addUtcYears('2024-11-18T00:00:00Z', 5).toISOString()).toBe('2029-11-18T00:00:00.000Z');
  });

  it('floors to the start of the minute', () => {
    expect(floorToMinute(toEpochMs('2025-01-01T10:04:59.999Z'))).toBe(
      toEpochMs('2025-01-01T10:04:00Z'),
    );
  });
});

describe('plan durations', () => {
  it('reads ISO 8601 durations', () => {
    expect(parseDuration('P90D')).toEqual({
      years: 0,
      months: 0,
      days: 90,
      hours: 0,
      minutes: 0,
      seconds: 0,
    });
    expect(parseDuration('P2Y')).toMatchObject({ years: 2, days: 0 });
    expect(parseDuration('P1Y2M1WT3H4M5S')).toEqual({
      years: 1,
      months: 2,
      days: 7,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
  });

  it('reads intervals as Postgres prints them', () => {
    expect(parseDuration('90 days')).toMatchObject({ days: 90 });
    expect(parseDuration('1 year 2 mons')).toMatchObject({ years: 1, months: 2 });
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'P', 'PT', '90', 'ninety days', '90 fortnights', 'P-1D', '1 year 2']) {
      expect(() => parseDuration(bad), bad).toThrow(RangeError);
    }
  });

  it('adds a duration in UTC', () => {
    expect(addDuration('2025-01-01T10:00:00Z', parseDuration('P90D')).toISOString()).toBe(
      '2025-04-01T10:00:00.000Z',
    );
    expect(addDuration('2024-02-29T00:00:00Z', parseDuration('P1Y')).toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
    expect(addDuration('2025-01-31T00:00:00Z', parseDuration('P1MT1H')).toISOString()).toBe(
      '2025-02-28T01:00:00.000Z',
    );
  });
});
