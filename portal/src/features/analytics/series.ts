import type {
  AnalyticsReport,
  BreakdownDimension,
  BreakdownItem,
  ReportUnit,
  RouteBreakdownItem,
} from '../../data/link-analytics-query.ts';

/** One bucket of the clicks-over-time chart and its table. */
export interface SeriesPoint {
  /** The bucket's start, epoch milliseconds. */
  time: number;
  /** The bucket as people read it (local time; days are UTC days, as the server counts). */
  label: string;
  clicks: number;
}

function formatterFor(unit: ReportUnit, locale: string, timeZone?: string): Intl.DateTimeFormat {
  switch (unit) {
    case 'minute':
    case 'hour':
      return new Intl.DateTimeFormat(locale, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
        timeZone,
      });
    case 'day':
      // Day buckets are UTC days: labelled in UTC so a bucket never reads as the day before.
      return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  }
}

/** The series in time order, each bucket labelled for its unit. */
export function seriesPoints(
  report: Pick<AnalyticsReport, 'series' | 'unit'>,
  options: { locale?: string; timeZone?: string } = {},
): SeriesPoint[] {
  const format = formatterFor(report.unit, options.locale ?? 'en', options.timeZone);
  return report.series
    .map((bucket) => ({ time: Date.parse(bucket.time), clicks: bucket.clicks }))
    .filter((bucket) => Number.isFinite(bucket.time))
    .sort((a, b) => a.time - b.time)
    .map((bucket) => ({ ...bucket, label: format.format(bucket.time) }));
}

/** The busiest bucket, for the chart's summary; null when nobody clicked. */
export function peakPoint(points: readonly SeriesPoint[]): SeriesPoint | null {
  return points.reduce<SeriesPoint | null>(
    (peak, point) =>
      point.clicks > 0 && (peak == null || point.clicks > peak.clicks) ? point : peak,
    null,
  );
}

/** Each breakdown's heading and the name of one of its values (the table's first column). */
export const DIMENSION_NAMES: Record<BreakdownDimension, { title: string; column: string }> = {
  countries: { title: 'Countries', column: 'Country' },
  devices: { title: 'Devices', column: 'Device' },
  browsers: { title: 'Browsers', column: 'Browser' },
  oses: { title: 'Operating systems', column: 'System' },
  referrers: { title: 'Referrers', column: 'Referrer' },
  routes: { title: 'Redirect rules', column: 'Went to' },
};

/** What a click without a value means in each dimension. */
const UNKNOWN_LABELS: Record<BreakdownDimension, string> = {
  countries: 'Unknown country',
  devices: 'Unknown device',
  browsers: 'Unknown browser',
  oses: 'Unknown system',
  referrers: 'Direct, QR or unknown',
  routes: 'The link’s destination (no rule matched)',
};

const DEVICE_LABELS: Record<string, string> = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  other: 'Other',
};

let regionNames: Intl.DisplayNames | null | undefined;
function countryName(code: string): string {
  if (regionNames === undefined) {
    regionNames =
      typeof Intl.DisplayNames === 'function'
        ? new Intl.DisplayNames(['en'], { type: 'region' })
        : null;
  }
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a region code Intl knows (the geo lookup may answer anything).
    return code;
  }
}

export function dimensionLabel(dimension: BreakdownDimension, value: string | null): string {
  if (value == null || value === '') return UNKNOWN_LABELS[dimension];
  if (dimension === 'countries') return countryName(value);
  if (dimension === 'devices') return DEVICE_LABELS[value] ?? value;
  return value;
}

export interface BreakdownRow {
  key: string;
  label: string;
  clicks: number;
  /** Share of the dimension's clicks, 0–100, rounded to one decimal. */
  percent: number;
}

/**
 * A dimension's rows, most clicks first: the first `limit - 1` values and the rest summed into
 * "Other" when there are more than `limit`.
 */
export function breakdownRows(
  dimension: BreakdownDimension,
  items: readonly BreakdownItem[],
  limit = 8,
): BreakdownRow[] {
  const total = items.reduce((sum, item) => sum + item.clicks, 0);
  const sorted = [...items].sort((a, b) => b.clicks - a.clicks);
  const shown = sorted.length > limit ? sorted.slice(0, limit - 1) : sorted;
  const rest = sorted.slice(shown.length);
  const percent = (clicks: number) => (total > 0 ? Math.round((clicks / total) * 1000) / 10 : 0);
  const rows = shown.map((item) => ({
    key: item.value ?? '',
    label: dimensionLabel(dimension, item.value),
    clicks: item.clicks,
    percent: percent(item.clicks),
  }));
  if (rest.length > 0) {
    const clicks = rest.reduce((sum, item) => sum + item.clicks, 0);
    rows.push({
      key: '\u0000other',
      label: `Other (${rest.length})`,
      clicks,
      percent: percent(clicks),
    });
  }
  return rows;
}

const NUMBER = new Intl.NumberFormat('en');
export const formatCount = (value: number): string => NUMBER.format(value);

/**
 * The clicks per redirect rule as breakdown items: "Rule N: url" (a removed rule by its id's
 * start), the link's own destination as the unknown value. Empty when no rule sent anyone.
 */
export function routeItems(routes: readonly RouteBreakdownItem[] | undefined): BreakdownItem[] {
  if (!routes?.some((route) => route.route_id !== null)) return [];
  return routes.map((route) => ({
    value:
      route.route_id === null
        ? null
        : route.position === null
          ? `Removed rule (${route.route_id.slice(0, 8)})`
          : `Rule ${route.position + 1}: ${route.url ?? ''}`,
    clicks: route.clicks,
  }));
}
