import { act, renderHook } from '@testing-library/react';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { describe, expect, it } from 'vitest';
import { effectivePeriod, readStoredPeriod, useStatsPeriod } from './period.ts';

describe('the stats period', () => {
  it('defaults to 24 hours and ignores stored values that are no period', () => {
    expect(readStoredPeriod(null)).toBe('last_24_hour');
    expect(readStoredPeriod('last_2_day')).toBe('last_24_hour');
    expect(readStoredPeriod('"last_7_day"')).toBe('last_24_hour');
    expect(readStoredPeriod('last_7_day')).toBe('last_7_day');
  });

  it('is kept in local storage under statsPeriod, as plain text, and read back', () => {
    const first = renderHook(() => useStatsPeriod());
    expect(first.result.current[0]).toBe('last_24_hour');
    act(() => first.result.current[1]('last_7_day'));
    expect(first.result.current[0]).toBe('last_7_day');
    expect(window.localStorage.getItem(STORAGE_KEYS.statsPeriod)).toBe('last_7_day');
    first.unmount();

    const later = renderHook(() => useStatsPeriod());
    expect(later.result.current[0]).toBe('last_7_day');
  });

  it('reads a garbled stored value as the default', () => {
    window.localStorage.setItem(STORAGE_KEYS.statsPeriod, 'forever');
    expect(renderHook(() => useStatsPeriod()).result.current[0]).toBe('last_24_hour');
  });

  describe('effectivePeriod: what to ask for when the plan covers fewer periods', () => {
    it('keeps a covered choice', () => {
      expect(effectivePeriod('last_7_day', ['last_1_hour', 'last_24_hour', 'last_7_day'])).toBe(
        'last_7_day',
      );
      expect(effectivePeriod('last_30_day', null)).toBe('last_30_day');
    });

    it('falls back to the longest covered period not longer than the choice', () => {
      expect(effectivePeriod('last_30_day', ['last_24_hour', 'last_1_hour', 'last_7_day'])).toBe(
        'last_7_day',
      );
    });

    it('takes the shortest covered period when every covered one is longer', () => {
      expect(effectivePeriod('last_1_hour', ['last_30_day', 'last_7_day'])).toBe('last_7_day');
    });
  });
});
