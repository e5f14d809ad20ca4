/** A day of kiosk_system_stats, as PostgREST answers it (bigints as numbers or strings). */
export interface SystemStatsRow {
  day: string;
  links: number | string;
  clicks: number | string;
  users: number | string;
  subscriptions: number | string;
}

export interface SystemStatsPoint {
  day: string;
  links: number;
  clicks: number;
  users: number;
  subscriptions: number;
}

export function toSeries(rows: readonly SystemStatsRow[]): SystemStatsPoint[] {
  return rows.map((row) => ({
    day: row.day,
    links: Number(row.links),
    clicks: Number(row.clicks),
    users: Number(row.users),
    subscriptions: Number(row.subscriptions),
  }));
}

export function totalsOf(series: readonly SystemStatsPoint[]) {
  return series.reduce(
    (sum, point) => ({
      links: sum.links + point.links,
      clicks: sum.clicks + point.clicks,
      users: sum.users + point.users,
      subscriptions: sum.subscriptions + point.subscriptions,
    }),
    { links: 0, clicks: 0, users: 0, subscriptions: 0 },
  );
}

/** kiosk_link_totals' answer. */
export interface LinkTotals {
  users: number;
  staff: number;
  links: number;
  active_links: number;
  long_urls: number;
  clicks: number;
  paid_subscriptions: number;
  banned_domains: number;
  by_status: Record<string, number>;
  by_domain: { domain: string; links: number }[];
}

/** Links per status as chart slices, largest first. */
export function statusSlices(byStatus: Readonly<Record<string, number>>) {
  return Object.entries(byStatus)
    .map(([status, links]) => ({ status, links }))
    .sort((a, b) => b.links - a.links || a.status.localeCompare(b.status));
}

export const PERIODS = [7, 30, 90, 365] as const;
