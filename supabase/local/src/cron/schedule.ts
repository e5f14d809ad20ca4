import { Cron } from 'croner';

/**
 * pg_cron's schedules (supabase/local/sql/extensions/pg_cron--1.6.4.sql checks them when a job is
 * written): five cron fields read in GMT, where both day fields restricted means either matches
 * (Vixie cron's rule) and `$` is the last day of the month; the @hourly/@daily/... shorthands;
 * or 'N seconds' (1 to 59), a run every N seconds.
 */
export type Schedule = { kind: 'interval'; seconds: number } | { kind: 'cron'; pattern: Cron };

const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export class InvalidScheduleError extends Error {
  constructor(schedule: string, reason?: string) {
    super(`invalid schedule: ${schedule}${reason ? ` (${reason})` : ''}`);
    this.name = 'InvalidScheduleError';
  }
}

export function parseSchedule(text: string): Schedule {
  const normalized = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const interval = normalized.match(/^(\d+) seconds?$/);
  if (interval) {
    const seconds = Number(interval[1]);
    if (seconds < 1 || seconds > 59)
      throw new InvalidScheduleError(text, 'seconds must be 1 to 59');
    return { kind: 'interval', seconds };
  }
  const fields = (SHORTHANDS[normalized] ?? normalized).split(' ');
  if (fields.length !== 5) throw new InvalidScheduleError(text, 'cron schedules have five fields');
  // croner spells pg_cron's last-day-of-month `$` as `L`.
  if (fields[2] === '$') fields[2] = 'L';
  try {
    const pattern = new Cron(fields.join(' '), {
      timezone: 'Etc/UTC',
      mode: '5-part',
      domAndDow: false,
      paused: true,
    });
    return { kind: 'cron', pattern };
  } catch (error) {
    throw new InvalidScheduleError(text, error instanceof Error ? error.message : String(error));
  }
}

/**
 * When a job with this schedule is next due, strictly after `after`; undefined for a date that
 * never comes (February 30th: cron accepts it, and never runs it).
 */
export function nextRunAfter(schedule: Schedule, after: Date): Date | undefined {
  if (schedule.kind === 'interval') return new Date(after.getTime() + schedule.seconds * 1000);
  return schedule.pattern.nextRun(after) ?? undefined;
}
