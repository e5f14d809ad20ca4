import { BULK_FILE_ERRORS } from '../../../shared/src/validation/files.ts';
import { MAX_ROWS } from './limits.ts';

/**
 * Why an uploaded file cannot be imported. Each becomes a 422 with the message under the form's
 * `file` field. The spec words none of these; they follow its other validation messages.
 */
export const FILE_MESSAGES = {
  ...BULK_FILE_ERRORS,
  empty: 'The file is empty.',
  noRows: 'The file has no rows to import.',
  tooManyRows: `The file must not have more than ${MAX_ROWS} rows.`,
  noUrlColumn: 'The file header must have a url column.',
  unreadable: 'The file could not be read.',
  expandsTooMuch: 'The file expands to more data than can be imported.',
  encoding: (row: number) => `The file must be UTF-8 encoded (invalid text in row ${row}).`,
  unterminatedQuote: (row: number) => `Row ${row} has a quoted field that is never closed.`,
} as const;

export class FileRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileRefusal';
  }
}
