/**
 * An uploaded bulk file to the rows to import, or a FileRefusal saying why not: size, type by
 * content, zip bomb, encoding, structure, row count — each checked before the next, cheapest
 * first.
 */
import { decodeCsv, parseCsv } from './csv.ts';
import { detectFileType, type BulkFileType } from './file-type.ts';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { MAX_FILE_BYTES, MAX_ROWS } from './limits.ts';
import { type BulkRow, rowsFromGrid } from './rows.ts';
import { readSpreadsheet } from './sheet-reader.ts';

export interface ReadFile {
  type: BulkFileType;
  rows: BulkRow[];
}

/** CSV lines read at most: MAX_ROWS data rows plus as many blank lines and a header. */
const CSV_RECORD_CAP = MAX_ROWS * 2 + 2;

export async function readBulkFile(
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
  withHeader: boolean,
): Promise<ReadFile> {
  if (bytes.length > MAX_FILE_BYTES) throw new FileRefusal(FILE_MESSAGES.size);
  if (bytes.length === 0) throw new FileRefusal(FILE_MESSAGES.empty);
  const { type } = await detectFileType(name, bytes);
  const grid =
    type === 'csv' ? parseCsv(decodeCsv(bytes), CSV_RECORD_CAP) : await readSpreadsheet(bytes);
  return { type, rows: rowsFromGrid(grid, withHeader) };
}
