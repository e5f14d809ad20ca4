/**
 * CSV as RFC 4180 writes it, read strictly as UTF-8: quoted fields (with "" for a quote, and
 * separators and line breaks inside), CRLF or LF (or a lone CR) between records, an optional
 * UTF-8 byte-order mark. The separator is a comma, or a semicolon when the first record has
 * semicolons and no commas outside quotes (what spreadsheet programs write in locales where the
 * comma is the decimal mark).
 */
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

export const stripUtf8Bom = (bytes: Uint8Array): Uint8Array =>
  UTF8_BOM.every((byte, index) => bytes[index] === byte) ? bytes.subarray(3) : bytes;

/**
 * The offset of the first byte that breaks UTF-8 (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, or a code point above U+10FFFF), or -1 when the text is valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    let min: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return index;
    if (index + length > bytes.length) return index;
    let codePoint = lead & (0xff >> (length + 1));
    for (let next = 1; next < length; next++) {
      const byte = bytes[index + next]!;
      if ((byte & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
      return index;
    index += length;
  }
  return -1;
}

/** The 1-based record a byte offset falls in: line breaks inside quoted fields do not count. */
export function recordAt(bytes: Uint8Array, offset: number): number {
  let record = 1;
  let quoted = false;
  for (let index = 0; index < offset; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && (byte === LF || (byte === CR && bytes[index + 1] !== LF))) record++;
  }
  return record;
}

/** UTF-8 text of a CSV file (BOM stripped), or a refusal naming the row with invalid bytes. */
export function decodeCsv(bytes: Uint8Array): string {
  const body = stripUtf8Bom(bytes);
  const invalid = firstInvalidUtf8(body);
  if (invalid >= 0) throw new FileRefusal(FILE_MESSAGES.encoding(recordAt(body, invalid)));
  return new TextDecoder('utf-8', { fatal: true }).decode(body);
}

function separatorOf(text: string): ',' | ';' {
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  for (const character of text) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === '\n' || character === '\r')) break;
    else if (!quoted && character === ',') commas++;
    else if (!quoted && character === ';') semicolons++;
  }
  return semicolons > 0 && commas === 0 ? ';' : ',';
}

/**
 * The records of a CSV text, each a list of fields; index i is file row i + 1. A blank line is
 * an empty record (`['']`), kept so that row numbers stay those a spreadsheet shows. A text
 * with more than `maxRecords` records is refused as too long once the limit is passed, so a huge
 * file is never held in memory as records.
 */
export function parseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): string[][] {
  const separator = separatorOf(text);
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  const length = text.length;
  for (;;) {
    // One field: quoted (up to its closing quote) and/or plain (up to a separator or line end).
    let field = '';
    if (text[index] === '"') {
      const startRecord = records.length + 1;
      index++;
      for (;;) {
        const close = text.indexOf('"', index);
        if (close < 0) throw new FileRefusal(FILE_MESSAGES.unterminatedQuote(startRecord));
        field += text.slice(index, close);
        index = close + 1;
        if (text[index] !== '"') break;
        field += '"';
        index++;
      }
    }
    const plainStart = index;
    while (index < length) {
      const character = text[index];
      if (character === separator || character === '\n' || character === '\r') break;
      index++;
    }
    // Text after a closing quote, or a quote inside an unquoted field, is kept as written, as
    // spreadsheet programs do.
    field += text.slice(plainStart, index);
    record.push(field);

    const end = text[index];
    if (end === separator) {
      index++;
      continue;
    }
    if (end === '\r' && text[index + 1] === '\n') index++;
    index++;
    if (records.length === maxRecords) throw new FileRefusal(FILE_MESSAGES.tooManyRows);
    records.push(record);
    record = [];
    if (index >= length) return records;
  }
}
