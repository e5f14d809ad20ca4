/**
 * The bulk import's limits, in one place. The file size and types are the spec's (link-creation
 * 5 and 9, shared BULK_FILE); the rest are ours, chosen so that one import stays within what one
 * function process can hold and the database can insert in well under a minute.
 */
import { BULK_FILE } from '../../../shared/src/constants.ts';

export const MAX_FILE_BYTES = BULK_FILE.maxBytes;

/** Data rows per file (blank rows and the header not counted). */
export const MAX_ROWS = 100_000;

/** Columns looked at: a header may name its columns anywhere among the first ones. */
export const MAX_COLUMNS = 20;

/** A multipart body may exceed the file by its other fields and boundaries, not by more. */
export const MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024;

/** xlsx and ods are zip archives: what they may expand to, in total and per compressed byte. */
export const MAX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;
export const MAX_COMPRESSION_RATIO = 200;
export const MAX_ZIP_ENTRIES = 2_000;

/** A spreadsheet that takes longer than this to read is refused (and its reader stopped). */
export const SPREADSHEET_READ_TIMEOUT_MS = 20_000;

/**
 * Rows per app.bulk_create_links call (one transaction, one insert statement per table). Large
 * enough that what each call costs once (the job's lock, the plan's checks, counting the
 * account's links for its limits) is spread thin; small enough that a chunk holds the account's
 * limits lock well under a second and the job's progress moves several times a minute.
 */
export const CHUNK_ROWS = 5_000;
