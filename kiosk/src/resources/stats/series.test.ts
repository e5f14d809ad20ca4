import { describe, expect, it } from 'vitest';
import { statusSlices, toSeries, totalsOf } from './series.ts';

describe('system stats series', () => {
  it('reads PostgREST bigints as numbers and totals the period', () => {
    const series = toSeries([
      { day: '2026-11-21', links: '2', clicks: '10', users: 1, subscriptions: '0' },
      { day: '2026-11-22', links: 3, clicks: '5', users: '0', subscriptions: 1 },
    ]);
    expect(series[0]).toEqual({
      day: '2026-11-21',
      links: 2,
      clicks: 10,
      users: 1,
      subscriptions: 0,
    });
    expect(totalsOf(series)).toEqual({ links: 5, clicks: 15, users: 1, subscriptions: 1 });
  });

  it('orders status slices by size, then name', () => {
    expect(statusSlices({ archived: 3, active: 90, deleted: 3 })).toEqual([
      { status: 'active', links: 90 },
      { status: 'archived', links: 3 },
      { status: 'deleted', links: 3 },
    ]);
  });
});
