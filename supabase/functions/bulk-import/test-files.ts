/**
 * Test support: spreadsheets written with the same library that reads them, and hand-made zip
 * archives (honest or lying about their sizes) for the zip-bomb guard. Not imported by the
 * function.
 */
import * as XLSX from 'xlsx';
import type { BulkFileType } from './file-type.ts';

const BOOK_TYPES = { xlsx: 'xlsx', ods: 'ods', xls: 'biff8' } as const;

/** A one-sheet workbook; `formulas` puts formula cells (with their cached values) at addresses. */
export function spreadsheet(
  type: Exclude<BulkFileType, 'csv'>,
  rows: unknown[][],
  formulas: Record<string, { formula: string; cached: string }> = {},
): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  for (const [address, { formula, cached }] of Object.entries(formulas)) {
    sheet[address] = { t: 's', v: cached, f: formula };
  }
  XLSX.utils.book_append_sheet(book, sheet, 'Links');
  const written = XLSX.write(book, { type: 'array', bookType: BOOK_TYPES[type] }) as ArrayBuffer;
  return new Uint8Array(written);
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

export async function deflateRaw(
  data: Uint8Array<ArrayBuffer>,
  repeat = 1,
): Promise<Uint8Array<ArrayBuffer>> {
  const input = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (let index = 0; index < repeat; index++) controller.enqueue(data);
      controller.close();
    },
  });
  const output = input.pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(output).arrayBuffer());
}

export interface RawZipEntry {
  name: string;
  /** The bytes as stored (already deflated for method 8). */
  stored: Uint8Array<ArrayBuffer>;
  method: 0 | 8;
  /** What the directory claims the entry inflates to. */
  declaredSize: number;
}

/** A zip archive from entries as given (CRCs left 0: the guard does not read them). */
export function zip(entries: RawZipEntry[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, entry.method, true);
    local.setUint32(18, entry.stored.length, true);
    local.setUint32(22, entry.declaredSize, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, entry.method, true);
    central.setUint32(20, entry.stored.length, true);
    central.setUint32(24, entry.declaredSize, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, entry.stored);
    directory.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + entry.stored.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...directory, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((sum, part) => sum + part.length, 0));
  let position = 0;
  for (const part of all) {
    out.set(part, position);
    position += part.length;
  }
  return out;
}

/** An entry named like an xlsx workbook part, so that the archive passes for an xlsx. */
export async function workbookEntry(
  name: string,
  content: Uint8Array<ArrayBuffer>,
  options: { repeat?: number; declaredSize?: number } = {},
): Promise<RawZipEntry> {
  const repeat = options.repeat ?? 1;
  return {
    name,
    stored: await deflateRaw(content, repeat),
    method: 8,
    declaredSize: options.declaredSize ?? content.length * repeat,
  };
}
