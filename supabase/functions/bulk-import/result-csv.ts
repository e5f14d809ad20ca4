/**
 * The import's result as CSV (RFC 4180, CRLF), one line per row of the file. Every cell that a
 * spreadsheet program would read as a formula (starting with = + - @, a tab or a carriage
 * return) gets a leading apostrophe: the file echoes what users uploaded, and a shared result
 * must not run `=HYPERLINK(…)` or `=cmd|…` on whoever opens it.
 */
export interface ResultLine {
  row: number;
  url: string;
  alias: string;
  shortUrl: string;
  tags: string;
  status: 'created' | 'failed';
  errors: string;
}

export const RESULT_HEADER = ['row', 'url', 'alias', 'short_url', 'tags', 'status', 'errors'];

const FORMULA_START = /^[=+\-@\t\r]/;

export const escapeFormula = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

export function csvCell(value: string): string {
  const cell = escapeFormula(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function resultCsv(lines: readonly ResultLine[]): string {
  const out = [RESULT_HEADER.join(',')];
  for (const line of lines) {
    out.push(
      [String(line.row), line.url, line.alias, line.shortUrl, line.tags, line.status, line.errors]
        .map(csvCell)
        .join(','),
    );
  }
  return out.join('\r\n') + '\r\n';
}
