/** An hourly click rollup row (public.click_stats_hourly) as the kiosk reads it. */
export interface HourlyClicks {
  hour: string;
  clicks: number;
  bot_clicks: number;
}

export interface DailyClicks {
  /** YYYY-MM-DD, UTC. */
  day: string;
  clicks: number;
  humans: number;
}

const DAY_MS = 86_400_000;

/** The first hour (UTC midnight) of the `days`-day window ending today. */
export function windowStart(days: number, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** Hourly rollups summed per UTC day, every day of the window present (zero when quiet). */
export function dailyClicks(rows: readonly HourlyClicks[], days: number, now: Date): DailyClicks[] {
  const start = windowStart(days, now).getTime();
  const series: DailyClicks[] = Array.from({ length: days }, (_, index) => ({
    day: new Date(start + index * DAY_MS).toISOString().slice(0, 10),
    clicks: 0,
    humans: 0,
  }));
  for (const row of rows) {
    const index = Math.floor((Date.parse(row.hour) - start) / DAY_MS);
    const bucket = series[index];
    if (!bucket) continue;
    bucket.clicks += Number(row.clicks);
    bucket.humans += Number(row.clicks) - Number(row.bot_clicks);
  }
  return series;
}
