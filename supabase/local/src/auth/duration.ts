/**
 * Go's time.ParseDuration, which GoTrue applies to `ban_duration` and which config.toml uses for
 * `max_frequency`: a sequence of decimal numbers with units, e.g. "300ms", "1.5h", "2h45m".
 * Errors carry Go's wording because GoTrue passes them through to the API caller.
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export class DurationError extends Error {}

export function parseGoDuration(input: string): number {
  const quoted = JSON.stringify(input);
  let rest = input;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new DurationError(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== '') {
    const number = rest.match(/^(\d*)(\.\d*)?/);
    const digits = number?.[0] ?? '';
    if (digits === '' || digits === '.')
      throw new DurationError(`time: invalid duration ${quoted}`);
    rest = rest.slice(digits.length);
    const unit = rest.match(/^[^\d.]+/)?.[0];
    if (!unit) throw new DurationError(`time: missing unit in duration ${quoted}`);
    const factor = UNIT_MS[unit];
    if (factor === undefined)
      throw new DurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    total += Number(digits) * factor;
    rest = rest.slice(unit.length);
  }
  return sign * total;
}
