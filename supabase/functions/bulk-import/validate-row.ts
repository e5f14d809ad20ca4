/**
 * The checks a row gets before it reaches the database: the destination's safety (url-safety:
 * scheme, internal and metadata addresses in every notation, control characters, credentials,
 * size) and the tags' rules (shared validateTags). What needs the database — banned domains, our
 * own short domains, aliases taken or reserved, plan features, limits and credits — is checked
 * set-based by app.bulk_create_links, which judges every destination again with the database's
 * rule (app.judge_destination) and stores its normalised form.
 */
import { validateTags } from '../../../shared/src/validation/tags.ts';
import { randomAlias } from '../_shared/alias.ts';
import { checkDestination } from '../_shared/url-safety.ts';
import type { BulkRow } from './rows.ts';

/** Field → messages, as the create form's errors map (url, alias, tags.N, form). */
export type FieldErrors = Record<string, string[]>;

export interface PreparedRow {
  row: number;
  url: string;
  alias: string | null;
  /** A first draw for a row without an alias (the database draws again on a collision). */
  random_alias: string | null;
  tags: string[];
}

export type RowCheck =
  { ok: true; row: PreparedRow } | { ok: false; row: number; errors: FieldErrors };

/** Banned and own domains are judged in SQL with the rest of the chunk, so not here. */
const SYNTAX_ONLY = { shortDomains: [], isBanned: () => false };

export const splitTags = (cell: string): string[] => (cell === '' ? [] : cell.split(/[,;]/));

export async function checkRow(row: BulkRow): Promise<RowCheck> {
  const errors: FieldErrors = {};
  const destination = await checkDestination(row.url, SYNTAX_ONLY);
  if (!destination.ok) errors.url = [destination.message];
  const tags = validateTags(splitTags(row.tags));
  for (const [field, message] of Object.entries(tags.errors)) errors[field] = [message];
  if (!destination.ok || Object.keys(errors).length > 0) return { ok: false, row: row.row, errors };
  return {
    ok: true,
    row: {
      row: row.row,
      url: destination.url,
      alias: row.alias === '' ? null : row.alias,
      random_alias: row.alias === '' ? randomAlias() : null,
      tags: tags.tags,
    },
  };
}
