import { errorMessage } from '@shortlane/shared/errors.ts';
import { EXPIRY_INVALID } from '@shortlane/shared/schemas/link.ts';
import { expiryError, expiryWindow, toUtcIso } from '@shortlane/shared/validation/expiry.ts';

/**
 * The expiry picker (link-creation 5, 9): a local date and time, from today to 5 years ahead,
 * at least about 5 minutes away; shown in local time, sent in UTC. The browser's
 * `datetime-local` value is YYYY-MM-DDTHH:mm in the user's time zone.
 */

const LOCAL_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The user's offset from UTC in minutes, east positive (shared's ExpiryClock convention). */
export const utcOffsetMinutes = (at: Date) => -at.getTimezoneOffset();

/** The picker's min and max (local date-times): today 00:00 to the last day's 23:59. */
export function expiryInputBounds(now: Date): { min: string; max: string } {
  const window = expiryWindow({ now, utcOffsetMinutes: utcOffsetMinutes(now) });
  return { min: `${window.minDate}T00:00`, max: `${window.maxDate}T23:59` };
}

/** The local picker value as the UTC ISO timestamp the API takes; null when unreadable. */
export function localInputToUtcIso(value: string): string | null {
  const match = LOCAL_MINUTE.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  // Local wall-clock time, exactly what the picker shows; 30 February rolls over and is refused.
  const instant = new Date(year, month - 1, day, hour, minute);
  const exists =
    instant.getFullYear() === year &&
    instant.getMonth() === month - 1 &&
    instant.getDate() === day &&
    instant.getHours() === hour &&
    instant.getMinutes() === minute;
  return exists ? toUtcIso(instant) : null;
}

/** The message for a picked expiry, or null when it may be sent (or none was picked). */
export function expiryInputError(value: string, now: Date): string | null {
  if (value === '') return null;
  const iso = localInputToUtcIso(value);
  if (iso == null) return EXPIRY_INVALID;
  const refusal = expiryError(new Date(iso), { now, utcOffsetMinutes: utcOffsetMinutes(now) });
  return refusal && errorMessage(refusal);
}
