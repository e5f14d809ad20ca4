/** The shapes app.bulk_create_links takes and answers, for the tests that call it directly. */

/** One prepared row of a bulk chunk (the row number is the file's). */
export interface BulkChunkRow {
  row: number;
  url: string;
  alias?: string;
  random_alias?: string;
  tags: string[];
}

/** A chunk's answer: the aliases made by row, and each refused row's field and error code. */
export interface BulkChunkAnswer {
  created: [number, string][];
  errors: [number, string, string][];
}
