/**
 * What an upload really is, from its first bytes, checked against the name it came with: a
 * renamed executable, a zip of something else or a PDF called `links.csv` is refused as a wrong
 * type before any parser sees it.
 */
import { fileExtension } from '../../../shared/src/validation/files.ts';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { inspectZip, type ZipDirectory } from './zip-guard.ts';

export type BulkFileType = 'csv' | 'xls' | 'xlsx' | 'ods';

/** The MIME type each is stored under (the imports bucket allows exactly these). */
export const MIME_TYPES: Record<BulkFileType, string> = {
  csv: 'text/csv',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** OLE2 compound file: the container of Excel 97-2003 workbooks. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

const startsWith = (bytes: Uint8Array, magic: number[]) =>
  bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);

/** Text has no NUL bytes; binaries (and UTF-16 text) nearly always do within the first KB. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  return !head.includes(0);
}

function zipKind(directory: ZipDirectory): 'xlsx' | 'ods' | undefined {
  if (directory.names.has('xl/workbook.xml')) return 'xlsx';
  if (directory.names.has('content.xml') && directory.mimetype === ODS_MIMETYPE) return 'ods';
  return undefined;
}

export interface DetectedFile {
  type: BulkFileType;
  /** For xlsx and ods: the archive's directory, already checked against the expansion caps. */
  zip?: ZipDirectory;
}

/**
 * The file's type when its content matches its extension; otherwise a FileRefusal. Zip-based
 * types are checked for zip bombs here, before anything is inflated.
 */
export async function detectFileType(
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<DetectedFile> {
  const extension = fileExtension(name);
  const wrongType = () => new FileRefusal(FILE_MESSAGES.type);
  switch (extension) {
    case 'csv':
      if (startsWith(bytes, ZIP_MAGIC) || startsWith(bytes, OLE_MAGIC) || !looksLikeText(bytes))
        throw wrongType();
      return { type: 'csv' };
    case 'xls':
      if (!startsWith(bytes, OLE_MAGIC)) throw wrongType();
      return { type: 'xls' };
    case 'xlsx':
    case 'ods': {
      if (!startsWith(bytes, ZIP_MAGIC)) throw wrongType();
      const zip = await inspectZip(bytes);
      if (zipKind(zip) !== extension) throw wrongType();
      return { type: extension, zip };
    }
    default:
      throw wrongType();
  }
}
