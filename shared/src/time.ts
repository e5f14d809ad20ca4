/**
 * Instants as the rules receive them: ISO strings from the database or `Date`s from the UI.
 * Rules never read the clock; callers pass `now`.
 */
export type Instant = string | Date;

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Milliseconds since the epoch; a malformed instant is a programming error, so it throws. */
export function toEpochMs(instant: Instant): number {
  const ms = instant instanceof Date ? instant.getTime() : Date.parse(instant);
  if (Number.isNaN(ms)) {
    throw new RangeError(`Invalid instant: ${String(instant)}`);
  }
  return ms;
}

/** Like `toEpochMs`, but an absent instant stays absent. */
export function toEpochMsOrNull(instant: Instant | null | undefined): number | null {
  return instant == null ? null : toEpochMs(instant);
}

/**
 * Adds calendar months in UTC, clamping to the last day of a shorter month
 * (31 Jan + 1 month = 28/29 Feb), as date libraries commonly do for renewals.
 */
export function addUtcMonths(instant: Instant, months: number): Date {
  const start = new Date(toEpochMs(instant));
  const day = start.getUTCDate();
  const result = new Date(start.getTime());
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDayOfTargetMonth = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDayOfTargetMonth));
  return result;
}

export function addUtcYears(instant: Instant, years: number): Date {
  return addUtcMonths(instant, years * 12);
}

/** Truncates to the start of the minute (UTC and local minutes coincide). */
export function floorToMinute(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;
}

/** A calendar duration: years and months vary in length, the rest are fixed. */
export interface CalendarDuration {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const ISO_DURATION =
  /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const POSTGRES_UNITS: Record<string, keyof CalendarDuration> = {
  year: 'years',
  years: 'years',
  mon: 'months',
  mons: 'months',
  month: 'months',
  months: 'months',
  day: 'days',
  days: 'days',
  hour: 'hours',
  hours: 'hours',
  min: 'minutes',
  mins: 'minutes',
  minute: 'minutes',
  minutes: 'minutes',
  sec: 'seconds',
  secs: 'seconds',
  second: 'seconds',
  seconds: 'seconds',
};

/**
 * Reads a plan duration such as `alias_lifetime`: ISO 8601 (`P90D`, `P2Y`) or the way
 * Postgres prints an interval (`90 days`, `2 years`, `1 year 2 mons`). Throws otherwise.
 */
export function parseDuration(text: string): CalendarDuration {
  const duration: CalendarDuration = {
    years: 0,
    months: 0,
    days: 0,
    hours: 0,
    minutes: 0,
    seconds: 0,
  };
  const trimmed = text.trim();
  const iso = ISO_DURATION.exec(trimmed);
  if (iso && trimmed !== 'P' && !trimmed.endsWith('T')) {
    const [, y, mo, w, d, h, mi, s] = iso.map((part) => Number(part ?? 0));
    return {
      years: y ?? 0,
      months: mo ?? 0,
      days: (w ?? 0) * 7 + (d ?? 0),
      hours: h ?? 0,
      minutes: mi ?? 0,
      seconds: s ?? 0,
    };
  }
  const tokens = trimmed.toLowerCase().split(/\s+/);
  if (tokens.length < 2 || tokens.length % 2 !== 0) {
    throw new RangeError(`Invalid duration: ${text}`);
  }
  for (let index = 0; index < tokens.length; index += 2) {
    const amount = tokens[index] ?? '';
    const unit = POSTGRES_UNITS[tokens[index + 1] ?? ''];
    if (!/^\d+$/.test(amount) || unit == null) {
      throw new RangeError(`Invalid duration: ${text}`);
    }
    duration[unit] += Number(amount);
  }
  return duration;
}

/** Adds a calendar duration in UTC: years and months first (clamped), then the fixed parts. */
export function addDuration(instant: Instant, duration: CalendarDuration): Date {
  const shifted = addUtcMonths(instant, duration.years * 12 + duration.months);
  return new Date(
    shifted.getTime() +
      duration.days * DAY_MS +
      duration.hours * HOUR_MS +
      duration.minutes * MINUTE_MS +
      duration.seconds * SECOND_MS,
  );
}
