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
