import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './duration.ts';

describe('parseGoDuration', () => {
  it.each([
    ['0', 0],
    ['1s', 1000],
    ['300ms', 300],
    ['1.5h', 5_400_000],
    ['2h45m', 9_900_000],
    ['-1m', -60_000],
    ['876000h', 876_000 * 3_600_000],
  ])('reads %s', (input, expected) => {
    expect(parseGoDuration(input)).toBe(expected);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['1', 'time: missing unit in duration "1"'],
    ['1 day', 'time: unknown unit " day" in duration "1 day"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['h', 'time: invalid duration "h"'],
  ])("refuses %j with Go's message", (input, message) => {
    expect(() => parseGoDuration(input)).toThrow(message);
  });
});
