/**
 * The import's result as CSV, one line per row of the file; formula-like cells are escaped
 * (shared/src/csv.ts), since the file echoes what users uploaded.
 */
import { csvText } from '../../../shared/src/csv.ts';

export { csvCell, escapeFormula } from '../../../shared/src/csv.ts';

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

export function resultCsv(lines: readonly ResultLine[]): string {
  return csvText(
    RESULT_HEADER,
    lines.map((line) => [
      String(line.row),
      line.url,
      line.alias,
      line.shortUrl,
      line.tags,
      line.status,
      line.errors,
    ]),
  );
}
