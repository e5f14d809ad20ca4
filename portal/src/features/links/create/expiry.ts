import { errorMessage } from '@shortlane/shared/errors.ts';
import { EXPIRY_INVALID } from '@shortlane/shared/schemas/link.ts';
import { expiryError, expiryWindow, toUtcIso } from '@shortlane/shared/validation/expiry.ts';

/**
 * The expiry picker (link-creation 5, 9): a local date and time, from today to 5 years ahead,
 * at least about 5 minutes away; shown in local time, sent in UTC. The browser's
 * `datetime-local` value is YYYY-MM-DDTHH:mm in the user's time zone.
 */

const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** The user's offset from UTC in minutes, east positive (shared's ExpiryClock convention). */
export const utcOffsetMinutes = (at: Date) => -at.getTimezoneOffset();

/** The picker's min and max (local date-times): today 00:00 to the last day's 23:59. */
export function expiryInputBounds(now: Date): { min: string; max: string } {
  const window = expiryWindow({ now, utcOffsetMinutes: utcOffsetMinutes(now) });
  return { min: `${window.minDate}T00:00`, max: `${window.maxDate}T23:59` };
}

/** The local picker value as the UTC ISO timestamp the API takes; null when unreadable. */
export function localInputToUtcIso(value: string): string | null {
  if (!LOCAL_MINUTE.test(value)) return null;
  // Without a zone, Date reads YYYY-MM-DDTHH:mm as local time: exactly what the picker shows.
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : toUtcIso(instant);
}

/** The message for a picked expiry, or null when it may be sent (or none was picked). */
export function expiryInputError(value: string, now: Date): string | null {
  if (value === '') return null;
  const iso = localInputToUtcIso(value);
  if (iso == null) return EXPIRY_INVALID;
  const refusal = expiryError(new Date(iso), { now, utcOffsetMinutes: utcOffsetMinutes(now) });
  return refusal && errorMessage(refusal);
}
