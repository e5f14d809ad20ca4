import { describe, expect, it } from 'vitest';
import { withoutCreateExtension } from './extensions.ts';

describe('withoutCreateExtension', () => {
  const names = ['pg_cron', 'pg_net', 'pgmq'];

  it('blanks the stand-ins’ create extension statements and keeps every line where it was', () => {
    const lines = [
      'create extension if not exists pg_cron with schema pg_catalog;',
      'grant usage on schema cron to postgres;',
      'CREATE EXTENSION "pgmq";',
      'create extension if not exists pg_net',
      '  with schema extensions;',
      'select 1;',
    ];
    const blank = (line: string) => ' '.repeat(line.length);
    expect(withoutCreateExtension(lines.join('\n'), names).split('\n')).toEqual([
      blank(lines[0]!),
      lines[1],
      blank(lines[2]!),
      blank(lines[3]!),
      blank(lines[4]!),
      lines[5],
    ]);
  });

  it('leaves other extensions, longer names and everything when no stand-in is plain', () => {
    const sql =
      'create extension if not exists pgcrypto; create extension pg_cron_extra; create extension pgmq;';
    expect(withoutCreateExtension(sql, names)).toBe(
      `create extension if not exists pgcrypto; create extension pg_cron_extra; ${' '.repeat(22)}`,
    );
    expect(withoutCreateExtension(sql, [])).toBe(sql);
  });
});
