/** Uploaded files: the profile photo (app-shell 5) and the bulk file (link-creation 5, 9). */
import { BULK_FILE } from '../constants.ts';

/** What the rules read of a File (browser) or an upload's metadata (functions). */
export interface FileMeta {
  name: string;
  size: number;
  /** MIME type; may be empty when the browser does not know it. */
  type: string;
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const PHOTO_EXTENSIONS = ['png', 'jpg', 'jpeg'];
const PHOTO_MIME_TYPES = ['image/png', 'image/jpeg'];

/** The spec gives the rule (png or jpg only) but not its message; this wording is ours. */
export const PHOTO_TYPE_ERROR = 'The photo must be a file of type: png, jpg.';

export function validateProfilePhoto(file: FileMeta): string | null {
  const typeOk = file.type === '' || PHOTO_MIME_TYPES.includes(file.type.toLowerCase());
  return PHOTO_EXTENSIONS.includes(fileExtension(file.name)) && typeOk ? null : PHOTO_TYPE_ERROR;
}

/** Bulk file messages are not in the spec; worded like its other validation messages. */
export const BULK_FILE_ERRORS = {
  required: 'The file field is required.',
  type: `The file must be a file of type: ${BULK_FILE.acceptedExtensions.join(', ')}.`,
  size: `The file must not be greater than ${BULK_FILE.maxBytes / 1024} kilobytes.`,
} as const;

/** Bulk file: csv, xls, xlsx or ods, at most 10MB. */
export function validateBulkFile(file: FileMeta | null | undefined): string | null {
  if (file == null || file.name === '') return BULK_FILE_ERRORS.required;
  if (!(BULK_FILE.acceptedExtensions as readonly string[]).includes(fileExtension(file.name))) {
    return BULK_FILE_ERRORS.type;
  }
  return file.size > BULK_FILE.maxBytes ? BULK_FILE_ERRORS.size : null;
}
