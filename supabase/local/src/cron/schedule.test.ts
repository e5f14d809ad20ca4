import { describe, expect, it } from 'vitest';
import { commandTag } from './runner.ts';
import { InvalidScheduleError, nextRunAfter, parseSchedule } from './schedule.ts';

const at = (iso: string) => new Date(iso);
const next = (schedule: string, after: string) =>
  nextRunAfter(parseSchedule(schedule), at(after))?.toISOString();

describe('parseSchedule and nextRunAfter', () => {
  it('reads N seconds as a run every N seconds', () => {
    expect(parseSchedule('1 seconds')).toEqual({ kind: 'interval', seconds: 1 });
    expect(parseSchedule(' 59  second ')).toEqual({ kind: 'interval', seconds: 59 });
    expect(next('30 seconds', '2026-01-01T00:00:10.500Z')).toBe('2026-01-01T00:00:40.500Z');
  });

  it('reads five cron fields in GMT, at whole minutes', () => {
    expect(next('* * * * *', '2026-01-01T00:00:10.500Z')).toBe('2026-01-01T00:01:00.000Z');
    expect(next('*/15 * * * *', '2026-01-01T00:16:00Z')).toBe('2026-01-01T00:30:00.000Z');
    expect(next('30 3 * * 6', '2026-01-01T00:00:00Z')).toBe('2026-01-03T03:30:00.000Z');
    expect(next('0 10 * * sun', '2026-01-01T00:00:00Z')).toBe('2026-01-04T10:00:00.000Z');
    expect(next('0 0 * * 7', '2026-01-01T00:00:00Z')).toBe('2026-01-04T00:00:00.000Z');
    expect(next('0 0 1 jan *', '2026-03-01T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('matches either day field when both are restricted, as Vixie cron does', () => {
    // The 15th (a Thursday) or any Monday, whichever comes first.
    expect(next('0 0 15 * 1', '2026-01-06T00:00:00Z')).toBe('2026-01-12T00:00:00.000Z');
    expect(next('0 0 15 * 1', '2026-01-13T00:00:00Z')).toBe('2026-01-15T00:00:00.000Z');
  });

  it('reads $ as the last day of the month, and the @ shorthands', () => {
    expect(next('0 12 $ * *', '2026-02-03T00:00:00Z')).toBe('2026-02-28T12:00:00.000Z');
    expect(next('@hourly', '2026-01-01T05:10:00Z')).toBe('2026-01-01T06:00:00.000Z');
    expect(next('@daily', '2026-01-01T05:10:00Z')).toBe('2026-01-02T00:00:00.000Z');
  });

  it('never runs a date that never comes', () => {
    expect(next('0 0 30 2 *', '2026-01-01T00:00:00Z')).toBeUndefined();
  });

  it('refuses what pg_cron refuses', () => {
    for (const bad of [
      '0 seconds',
      '60 seconds',
      '* * * *',
      '0 0 * * * *',
      '61 * * * *',
      'every day',
      '',
    ]) {
      expect(() => parseSchedule(bad), bad).toThrow(InvalidScheduleError);
    }
  });
});

describe('commandTag', () => {
  it('is what psql prints for the last statement', () => {
    expect(commandTag({ command: 'SELECT', rowCount: 1 })).toBe('SELECT 1');
    expect(commandTag({ command: 'INSERT', rowCount: 3 })).toBe('INSERT 0 3');
    expect(commandTag({ command: 'UPDATE', rowCount: 0 })).toBe('UPDATE 0');
    expect(commandTag({ command: 'VACUUM', rowCount: null })).toBe('VACUUM');
  });
});
