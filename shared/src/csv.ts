/**
 * CSV as spreadsheets read it (RFC 4180, CRLF line ends). Every cell a spreadsheet program would
 * read as a formula (starting with = + - @, a tab or a carriage return) gets a leading
 * apostrophe: our files echo what people typed (link URLs, names, audit values), and a shared
 * file must not run `=HYPERLINK(…)` or `=cmd|…` on whoever opens it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const escapeFormula = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

export function csvCell(value: string): string {
  const cell = escapeFormula(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** A header and its rows as one CSV text, ending with a line break. */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
