/**
 * From a grid of cells (any file type) to the rows to import.
 *
 * Columns, in this order when the file has no header: 1. the long URL (required), 2. a custom
 * alias (optional; empty for a random one), 3. tags (optional; several in one cell, separated by
 * commas or semicolons). With a header (the form's withHeader, default true) the first row names
 * the columns, in any order and case, with these names:
 *   url:   url, long url, long_url, longurl, destination, link
 *   alias: alias, custom alias, custom_alias, back-half
 *   tags:  tags, tag
 * A header without a url column is refused; unnamed columns are ignored. Rows whose cells are
 * all empty are skipped. Row numbers are the file's (the header is row 1).
 */
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { MAX_COLUMNS, MAX_ROWS } from './limits.ts';

export interface BulkRow {
  /** 1-based row number in the file, as a spreadsheet program shows it. */
  row: number;
  url: string;
  alias: string;
  /** The tags cell as written (split and checked later). */
  tags: string;
}

interface ColumnMap {
  url: number;
  alias?: number;
  tags?: number;
}

const POSITIONAL: ColumnMap = { url: 0, alias: 1, tags: 2 };

const HEADER_NAMES: Record<keyof ColumnMap, string[]> = {
  url: ['url', 'long url', 'long_url', 'longurl', 'destination', 'link'],
  alias: ['alias', 'custom alias', 'custom_alias', 'back-half'],
  tags: ['tags', 'tag'],
};

const headerKey = (cell: string) => cell.trim().toLowerCase().replace(/\s+/g, ' ');

function columnsFromHeader(header: readonly string[]): ColumnMap {
  const keys = header.slice(0, MAX_COLUMNS).map(headerKey);
  const find = (column: keyof ColumnMap) => {
    const index = keys.findIndex((key) => HEADER_NAMES[column].includes(key));
    return index < 0 ? undefined : index;
  };
  const url = find('url');
  if (url === undefined) throw new FileRefusal(FILE_MESSAGES.noUrlColumn);
  return { url, alias: find('alias'), tags: find('tags') };
}

const cell = (record: readonly string[], index: number | undefined) =>
  index === undefined ? '' : (record[index] ?? '').trim();

const isBlank = (record: readonly string[]) => record.every((value) => value.trim() === '');

/**
 * The rows to import; refuses a file with no data rows (empty, or a header only) and one with
 * more than MAX_ROWS. `grid[i]` is file row `i + 1`.
 */
export function rowsFromGrid(grid: readonly (readonly string[])[], withHeader: boolean): BulkRow[] {
  let first = 0;
  let columns = POSITIONAL;
  if (withHeader) {
    // The header is the first row with anything in it.
    while (first < grid.length && isBlank(grid[first]!)) first++;
    if (first === grid.length) throw new FileRefusal(FILE_MESSAGES.noRows);
    columns = columnsFromHeader(grid[first]!);
    first++;
  }
  const rows: BulkRow[] = [];
  for (let index = first; index < grid.length; index++) {
    const record = grid[index]!;
    if (isBlank(record)) continue;
    if (rows.length === MAX_ROWS) throw new FileRefusal(FILE_MESSAGES.tooManyRows);
    rows.push({
      row: index + 1,
      url: cell(record, columns.url),
      alias: cell(record, columns.alias),
      tags: cell(record, columns.tags),
    });
  }
  if (rows.length === 0) throw new FileRefusal(FILE_MESSAGES.noRows);
  return rows;
}
