/**
 * Link expiry (link-creation 5 and 9): dates from today to 5 years ahead are selectable, the
 * time must be later than about 5 minutes from now compared to the minute, and the value is
 * shown in local time but sent in UTC.
 */
import { EXPIRY_WINDOW } from '../constants.ts';
import type { ErrorCode } from '../errors.ts';
import type { Instant } from '../time.ts';
import {
  addDuration,
  addUtcYears,
  floorToMinute,
  MINUTE_MS,
  parseDuration,
  toEpochMs,
} from '../time.ts';

export interface ExpiryClock {
  now: Instant;
  /**
   * The user's offset from UTC in minutes (east positive: +60 for CET), so "today" is the
   * user's today. In a browser: `-new Date().getTimezoneOffset()`.
   */
  utcOffsetMinutes?: number;
}

/** YYYY-MM-DD of an instant shifted into the user's local time. */
function localDate(epochMs: number, utcOffsetMinutes: number): string {
  return new Date(epochMs + utcOffsetMinutes * MINUTE_MS).toISOString().slice(0, 10);
}

/** The date picker's bounds (local dates) and the earliest acceptable minute (UTC). */
export function expiryWindow(clock: ExpiryClock): {
  minDate: string;
  maxDate: string;
  earliest: Date;
} {
  const now = toEpochMs(clock.now);
  const offset = clock.utcOffsetMinutes ?? 0;
  const localNow = now + offset * MINUTE_MS;
  return {
    minDate: localDate(now, offset),
    maxDate: addUtcYears(new Date(localNow), EXPIRY_WINDOW.maxYearsAhead)
      .toISOString()
      .slice(0, 10),
    earliest: new Date(floorToMinute(now + EXPIRY_WINDOW.minMinutesAhead * MINUTE_MS) + MINUTE_MS),
  };
}

export type ExpiryErrorCode = Extract<ErrorCode, 'expiry_too_soon' | 'expiry_too_far'>;

/** Why an expiry is refused, or null when it is inside the window. */
export function expiryError(expiresAt: Instant, clock: ExpiryClock): ExpiryErrorCode | null {
  const expires = toEpochMs(expiresAt);
  const window = expiryWindow(clock);
  if (floorToMinute(expires) < window.earliest.getTime()) return 'expiry_too_soon';
  if (localDate(expires, clock.utcOffsetMinutes ?? 0) > window.maxDate) return 'expiry_too_far';
  return null;
}

const EXPIRY_FORMAT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether the written wall-clock fields exist (no 30 February, no 24:00). */
function isRealDateTime(fields: readonly number[]): boolean {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = fields;
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    probe.getUTCHours() === hour &&
    probe.getUTCMinutes() === minute &&
    probe.getUTCSeconds() === second
  );
}

/**
 * Reads an expiry as sent: a UTC ISO timestamp (an explicit offset is accepted too), or
 * YYYY-MM-DDTHH:mm taken as UTC. Returns null for anything else, including impossible
 * dates such as 2025-02-30T10:00.
 */
export function parseExpiry(value: string): Date | null {
  const match = EXPIRY_FORMAT.exec(value);
  if (match == null) return null;
  const [, year, month, day, hour, minute, second, zone] = match;
  // Seconds and a zone come together: YYYY-MM-DDTHH:mm alone, or a full ISO timestamp.
  if (zone == null && second != null) return null;
  const fields = [year, month, day, hour, minute, second ?? '0'].map(Number);
  if (!isRealDateTime(fields)) return null;
  const ms = Date.parse(zone == null ? `${value}:00Z` : value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** The UTC ISO timestamp the API receives. */
export function toUtcIso(instant: Instant): string {
  return new Date(toEpochMs(instant)).toISOString();
}

/** YYYY-MM-DDTHH:mm in UTC. */
export function formatUtcMinute(instant: Instant): string {
  return new Date(toEpochMs(instant)).toISOString().slice(0, 16);
}

/**
 * The default alias expiration: now plus the plan's `alias_lifetime`, as
 * YYYY-MM-DDTHH:mm in UTC; null when the plan sets no lifetime.
 */
export function defaultAliasExpiration(now: Instant, aliasLifetime: string | null): string | null {
  if (aliasLifetime == null || aliasLifetime === '') return null;
  return formatUtcMinute(addDuration(now, parseDuration(aliasLifetime)));
}
