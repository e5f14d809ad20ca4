/**
 * The SheetJS call itself, shared by the worker and the in-process fallback (sheet-reader.ts
 * explains the precautions around it).
 */
import { MAX_COLUMNS, MAX_ROWS } from './limits.ts';

export type SheetAnswer =
  { ok: true; grid: string[][] } | { ok: false; reason: 'unreadable' | 'tooManyRows' | 'noRows' };

export async function readWorkbookGrid(bytes: Uint8Array): Promise<SheetAnswer> {
  const XLSX = await import('xlsx');
  // One row more than imported: the header.
  const rowCap = MAX_ROWS + 1;
  let workbook: ReturnType<typeof XLSX.read>;
  try {
    workbook = XLSX.read(bytes, {
      type: 'array',
      sheets: 0,
      sheetRows: rowCap,
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellNF: false,
      cellStyles: false,
      cellDates: false,
      bookVBA: false,
      bookFiles: false,
      bookProps: false,
    });
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (!sheet?.['!ref']) return { ok: false, reason: 'noRows' };
  // With sheetRows, SheetJS keeps the sheet's real extent in !fullref.
  const full = XLSX.utils.decode_range(sheet['!fullref'] ?? sheet['!ref']);
  if (full.e.r + 1 > rowCap) return { ok: false, reason: 'tooManyRows' };
  const used = XLSX.utils.decode_range(sheet['!ref']);
  // From A1, so that index i is file row i + 1 and columns keep their positions.
  const range = { s: { r: 0, c: 0 }, e: { r: used.e.r, c: Math.min(used.e.c, MAX_COLUMNS - 1) } };
  const grid = XLSX.utils.sheet_to_json<string[]>(sheet, {
    header: 1,
    range,
    raw: false,
    defval: '',
    blankrows: true,
  });
  return { ok: true, grid: grid.map((row) => row.map((value) => String(value ?? ''))) };
}
