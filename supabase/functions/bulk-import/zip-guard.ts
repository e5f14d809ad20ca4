/**
 * Zip-bomb guard for xlsx and ods (both zip archives). The central directory is read first and
 * the archive refused when it declares too many entries, too much data in total, or too much
 * data per compressed byte — before anything is inflated. Then every entry is inflated once,
 * into nothing, with the output counted and cut off at its declared size: an archive whose
 * declared sizes lie is refused before the spreadsheet reader trusts it.
 */
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { MAX_COMPRESSION_RATIO, MAX_UNCOMPRESSED_BYTES, MAX_ZIP_ENTRIES } from './limits.ts';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const MAX_END_RECORD_SEARCH = 22 + 0xffff;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  names: Set<string>;
  totalUncompressed: number;
  /** The content of a stored `mimetype` entry (OpenDocument's type marker), if any. */
  mimetype?: string;
}

const unreadable = () => new FileRefusal(FILE_MESSAGES.unreadable);
const tooBig = () => new FileRefusal(FILE_MESSAGES.expandsTooMuch);

function findEndRecord(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - MAX_END_RECORD_SEARCH);
  for (let offset = view.byteLength - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  throw unreadable();
}

function readDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const start = view.getUint32(end + 16, true);
  // 0xFFFF / 0xFFFFFFFF mean "see the ZIP64 record": no spreadsheet within our limits needs it.
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) throw unreadable();
  if (count > MAX_ZIP_ENTRIES) throw tooBig();
  if (start + size > end) throw unreadable();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries: ZipEntry[] = [];
  let offset = start;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== DIRECTORY_ENTRY) throw unreadable();
    const flags = view.getUint16(offset + 8, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    // Bit 0: encrypted. A password-protected workbook cannot be read anyway.
    if (flags & 1) throw unreadable();
    entries.push({
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's compressed bytes are, from its local header. */
function entryData(bytes: Uint8Array<ArrayBuffer>, entry: ZipEntry): Uint8Array<ArrayBuffer> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = entry.localHeaderOffset;
  if (header + 30 > bytes.length || view.getUint32(header, true) !== LOCAL_HEADER)
    throw unreadable();
  const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw unreadable();
  return bytes.subarray(start, end);
}

/** Inflates an entry into nothing, failing once it yields more than it declared. */
async function inflatedSizeWithin(data: Uint8Array<ArrayBuffer>, limit: number): Promise<void> {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw tooBig();
    }
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    throw unreadable();
  } finally {
    reader.cancel().catch(() => {});
  }
  if (total !== limit) throw unreadable();
}

export async function inspectZip(bytes: Uint8Array<ArrayBuffer>): Promise<ZipDirectory> {
  const entries = readDirectory(bytes);
  let totalUncompressed = 0;
  let totalCompressed = 0;
  for (const entry of entries) {
    totalUncompressed += entry.uncompressedSize;
    totalCompressed += entry.compressedSize;
    if (entry.method !== STORED && entry.method !== DEFLATED) throw unreadable();
    if (entry.method === STORED && entry.compressedSize !== entry.uncompressedSize)
      throw unreadable();
  }
  if (
    totalUncompressed > MAX_UNCOMPRESSED_BYTES ||
    totalUncompressed > Math.max(totalCompressed, 1) * MAX_COMPRESSION_RATIO
  )
    throw tooBig();

  let mimetype: string | undefined;
  for (const entry of entries) {
    const data = entryData(bytes, entry);
    if (entry.method === DEFLATED) await inflatedSizeWithin(data, entry.uncompressedSize);
    if (entry.name === 'mimetype' && entry.method === STORED)
      mimetype = new TextDecoder().decode(data).trim();
  }
  return {
    entries,
    names: new Set(entries.map((entry) => entry.name)),
    totalUncompressed,
    mimetype,
  };
}
