import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchesSurvey, useOpensAfter, type SurveyAudience } from './surveyRules.ts';

const everyone: SurveyAudience = {
  signedIn: true,
  pastDue: false,
  surveyEnabled: true,
  skipped: false,
};

describe('fetchesSurvey', () => {
  it('fetches for a signed-in user with the survey on, not past due, not skipped', () => {
    expect(fetchesSurvey(everyone)).toBe(true);
  });

  it.each([
    ['logged out', { signedIn: false }],
    ['past due', { pastDue: true }],
    ['skipped in the browser', { skipped: true }],
    ['turned off or answered', { surveyEnabled: false }],
  ])('does not fetch when %s', (_, change) => {
    expect(fetchesSurvey({ ...everyone, ...change })).toBe(false);
  });
});

describe('useOpensAfter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens exactly 500 ms after the survey is ready, not a millisecond before', () => {
    const { result, rerender } = renderHook(({ ready }) => useOpensAfter(ready), {
      initialProps: { ready: false },
    });
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current).toBe(false);
    rerender({ ready: true });
    act(() => vi.advanceTimersByTime(499));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('closes when the survey goes away and waits again when it comes back', () => {
    const { result, rerender } = renderHook(({ ready }) => useOpensAfter(ready), {
      initialProps: { ready: true },
    });
    act(() => vi.advanceTimersByTime(500));
    expect(result.current).toBe(true);
    rerender({ ready: false });
    expect(result.current).toBe(false);
    rerender({ ready: true });
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(500));
    expect(result.current).toBe(true);
  });
});
