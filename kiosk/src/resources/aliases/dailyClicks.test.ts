import { describe, expect, it } from 'vitest';
import { dailyClicks, windowStart } from './dailyClicks.ts';

const now = new Date('2026-11-22T15:30:00Z');

describe('dailyClicks', () => {
  it('starts the window at UTC midnight, days - 1 days before today', () => {
    expect(windowStart(3, now).toISOString()).toBe('2026-11-20T00:00:00.000Z');
  });

  it('sums hours per UTC day, counts humans apart from bots, fills quiet days with zero', () => {
    expect(
      dailyClicks(
        [
          { hour: '2026-11-20T23:00:00Z', clicks: 5, bot_clicks: 1 },
          { hour: '2026-11-22T00:00:00+00:00', clicks: 2, bot_clicks: 0 },
          { hour: '2026-11-22T15:00:00Z', clicks: 3, bot_clicks: 3 },
          // Outside the window: ignored.
          { hour: '2026-11-19T23:00:00Z', clicks: 100, bot_clicks: 0 },
        ],
        3,
        now,
      ),
    ).toEqual([
      { day: '2026-11-20', clicks: 5, humans: 4 },
      { day: '2026-11-21', clicks: 0, humans: 0 },
      { day: '2026-11-22', clicks: 5, humans: 2 },
    ]);
  });
});
