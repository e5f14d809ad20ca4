/**
 * Postgres array literals (`{a,b,NULL}`) for sending a column of values as one parameter, as the
 * click writer does (clicks.ts): cheaper to build than the driver's own array serialisation,
 * which quotes and escapes every element whatever it holds.
 */

/**
 * For values that need no quotes: made of letters, digits and `-:.+_` only, and never the word
 * NULL (uuids, ISO times, hex, fixed words). Null is NULL. Checked by the caller, not here.
 */
export function plainArray(values: readonly (string | null)[]): string {
  let literal = '{';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ',';
    literal += values[index] ?? 'NULL';
  }
  return `${literal}}`;
}

const SPECIAL = /["\\]/g;

/** For any text: each value quoted, with `"` and `\` escaped; null is NULL. */
export function textArray(values: readonly (string | null)[]): string {
  let literal = '{';
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ',';
    const value = values[index];
    literal +=
      value === null || value === undefined
        ? 'NULL'
        : `"${value.search(SPECIAL) < 0 ? value : value.replace(SPECIAL, '\\$&')}"`;
  }
  return `${literal}}`;
}
