/**
 * The seasonal sale calendar (app-shell 4 and 9): pre-sale, Black Friday, post-Black Friday,
 * Cyber Monday. Each phase ends 1 second before the next begins; Cyber Monday lasts one day.
 */
import type { BillingInterval } from './constants.ts';
import type { Instant } from './time.ts';
import { DAY_MS, SECOND_MS, toEpochMs } from './time.ts';

export const SALE_PHASES = [
  'pre_sale',
  'black_friday',
  'post_black_friday',
  'cyber_monday',
] as const;
export type SalePhase = (typeof SALE_PHASES)[number];

/** When each phase starts, and when the last one (Cyber Monday) is over. */
export interface SaleCalendarDates {
  preSaleStartsAt: Instant;
  blackFridayStartsAt: Instant;
  postBlackFridayStartsAt: Instant;
  cyberMondayStartsAt: Instant;
  saleEndsAt: Instant;
}

/**
 * The 2024 defaults. The spec gives dates, not a time zone; midnight UTC is our choice and
 * configuration may override any date.
 */
export const DEFAULT_SALE_CALENDAR_DATES: SaleCalendarDates = {
  preSaleStartsAt: '2024-11-18T00:00:00Z',
  blackFridayStartsAt: '2024-11-25T00:00:00Z',
  postBlackFridayStartsAt: '2024-11-30T00:00:00Z',
  cyberMondayStartsAt: '2024-12-02T00:00:00Z',
  saleEndsAt: new Date(Date.parse('2024-12-02T00:00:00Z') + DAY_MS).toISOString(),
};

/**
 * The spec fixes the 2024 Black Friday coupon code but does not show it; this is our
 * placeholder name.
 */
export const BLACK_FRIDAY_2024_COUPON = 'BLACKFRIDAY2024';

export interface SalePhaseWindow {
  phase: SalePhase;
  startsAt: Date;
  /** Inclusive: 1 second before the next phase begins. */
  endsAt: Date;
}

export type SaleCalendar = readonly SalePhaseWindow[];

/** Builds the calendar from configuration; the dates must increase strictly. */
export function saleCalendar(overrides: Partial<SaleCalendarDates> = {}): SaleCalendar {
  const dates = { ...DEFAULT_SALE_CALENDAR_DATES, ...overrides };
  const boundaries = [
    dates.preSaleStartsAt,
    dates.blackFridayStartsAt,
    dates.postBlackFridayStartsAt,
    dates.cyberMondayStartsAt,
    dates.saleEndsAt,
  ].map(toEpochMs);
  for (let index = 1; index < boundaries.length; index += 1) {
    if ((boundaries[index] ?? 0) <= (boundaries[index - 1] ?? 0)) {
      throw new RangeError('Sale calendar dates must increase strictly');
    }
  }
  return SALE_PHASES.map((phase, index) => ({
    phase,
    startsAt: new Date(boundaries[index] ?? 0),
    endsAt: new Date((boundaries[index + 1] ?? 0) - SECOND_MS),
  }));
}

export const DEFAULT_SALE_CALENDAR: SaleCalendar = saleCalendar();

const DATE_FIELDS = Object.keys(DEFAULT_SALE_CALENDAR_DATES) as (keyof SaleCalendarDates)[];

/**
 * The calendar as configured (SALE_CALENDAR for functions, VITE_SALE_CALENDAR for the portal): a
 * JSON object with any of SaleCalendarDates' fields as ISO instants, over the spec's dates. Unset
 * or blank means the spec's dates; anything malformed throws, naming the variable, so a wrong
 * setting stops the app at start-up instead of silently moving the sale.
 */
export function saleCalendarFromConfig(
  raw: string | null | undefined,
  name = 'SALE_CALENDAR',
): SaleCalendar {
  if (raw == null || raw.trim() === '') return DEFAULT_SALE_CALENDAR;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be a JSON object of sale dates, got "${raw}".`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${name} must be a JSON object of sale dates, got "${raw}".`);
  const overrides: Partial<SaleCalendarDates> = {};
  for (const [field, value] of Object.entries(parsed)) {
    if (!DATE_FIELDS.includes(field as keyof SaleCalendarDates))
      throw new Error(
        `${name} has an unknown field "${field}" (known: ${DATE_FIELDS.join(', ')}).`,
      );
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      throw new Error(
        `${name}.${field} must be an ISO date and time, got ${JSON.stringify(value)}.`,
      );
    overrides[field as keyof SaleCalendarDates] = value;
  }
  try {
    return saleCalendar(overrides);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}.`, { cause: error });
  }
}

/** When the whole sale starts and ends (inclusive: its last second), for display. */
export function saleSpan(calendar: SaleCalendar = DEFAULT_SALE_CALENDAR): {
  startsAt: Date;
  endsAt: Date;
} {
  return { startsAt: calendar[0]!.startsAt, endsAt: calendar[calendar.length - 1]!.endsAt };
}

/** The phase at `now`, or null outside the sale. */
export function salePhaseAt(
  now: Instant,
  calendar: SaleCalendar = DEFAULT_SALE_CALENDAR,
): SalePhase | null {
  const at = toEpochMs(now);
  // Phases are contiguous: a phase runs until the next one starts, so a moment inside the
  // last second of a phase (e.g. 23:59:59.5) still belongs to it.
  const window = calendar.find(
    (candidate) =>
      at >= candidate.startsAt.getTime() && at < candidate.endsAt.getTime() + SECOND_MS,
  );
  return window?.phase ?? null;
}

/** The Black Friday coupon applies to yearly intervals during the sale. */
export function saleCouponFor(
  interval: BillingInterval,
  now: Instant,
  calendar: SaleCalendar = DEFAULT_SALE_CALENDAR,
  couponCode: string = BLACK_FRIDAY_2024_COUPON,
): string | null {
  return interval === 'yearly' && salePhaseAt(now, calendar) != null ? couponCode : null;
}

/**
 * The Black Friday / Cyber Monday promotion is visible by default, only to unsubscribed
 * users, and its banner shows during the sale phases.
 */
export function isSaleBannerVisible(input: {
  subscribed: boolean;
  promotionClosed: boolean;
  now: Instant;
  calendar?: SaleCalendar;
}): boolean {
  return (
    !input.subscribed &&
    !input.promotionClosed &&
    salePhaseAt(input.now, input.calendar ?? DEFAULT_SALE_CALENDAR) != null
  );
}
