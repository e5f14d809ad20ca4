import { json } from '../http.ts';
import { asCaller, type StorageContext } from './context.ts';
import { storageErrors } from './errors.ts';
import { listObjectsV2, type ListV2Column, type ListV2Row } from './object-rows.ts';
import { field, readJsonObject } from './request-body.ts';
import type { RouteInput } from './router.ts';

/**
 * POST /object/list-v2/:bucket (supabase-js `listV2`): objects under a prefix, flat or grouped
 * into folders with `with_delimiter`, in pages of at most 1000 that continue from an opaque
 * cursor. Answers `{ hasNext, nextCursor?, nextCursorKey?, folders, objects }` as Storage does
 * (storage/object.ts listObjectsV2).
 */

const MAX_KEYS = 1000;
const SORT_COLUMNS = ['name', 'updated_at', 'created_at'] as const;

/** What a cursor holds: where the last page ended, and the order it was listed in. */
interface Cursor {
  startAfter: string;
  order?: 'asc' | 'desc';
  column?: ListV2Column;
  /** The last entry's time in the sort column (ISO), for listings by time. */
  after?: string;
}

// Storage's token: base64 of `l:<start after>`, `o:<order>`, `c:<column>`, `a:<time>` lines.
const CURSOR_PARTS = { l: 'startAfter', o: 'order', c: 'column', a: 'after' } as const;

function encodeCursor(cursor: Cursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, name]) => cursor[name])
    .map(([letter, name]) => `${letter}:${cursor[name]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): Cursor {
  const invalid = () => storageErrors.invalidParameter('continuation token');
  const cursor: Cursor = { startAfter: '', order: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const match = /^(\S):(.*)$/.exec(line);
    const name = match && CURSOR_PARTS[match[1] as keyof typeof CURSOR_PARTS];
    if (!match || !name) throw invalid();
    const value = match[2] ?? '';
    if (name === 'order') {
      if (value !== 'asc' && value !== 'desc') throw invalid();
      cursor.order = value;
    } else if (name === 'column') {
      if (!(SORT_COLUMNS as readonly string[]).includes(value)) throw invalid();
      cursor.column = value as ListV2Column;
    } else if (name === 'after') {
      if (Number.isNaN(Date.parse(value))) throw invalid();
      cursor.after = value;
    } else {
      cursor.startAfter = value;
    }
  }
  return cursor;
}

/** An entry as Storage renders it: folders end in `/`; the sort key stays internal. */
function render(row: ListV2Row) {
  const { sort_key: _sortKey, ...entry } = row;
  return row.id === null && !row.name.endsWith('/') ? { ...entry, name: `${row.name}/` } : entry;
}

export async function listV2(context: StorageContext, input: RouteInput) {
  const bucketId = input.params.bucket ?? '';
  const body = await readJsonObject(input.request);
  const prefix = field.optionalString(body, 'prefix') ?? '';
  const limit = Math.min(field.optionalInteger(body, 'limit', 1) ?? MAX_KEYS, MAX_KEYS);
  const token = field.optionalString(body, 'cursor');
  const delimited = field.optionalBoolean(body, 'with_delimiter') ?? false;
  const sortBy = field.optionalSortBy(body, SORT_COLUMNS, { columnRequired: true });
  const cursor = token ? decodeCursor(token) : undefined;
  // A cursor keeps the order of the listing it came from.
  const column = cursor?.column ?? sortBy?.column ?? 'name';
  const order = cursor?.order ?? sortBy?.order ?? 'asc';

  const rows = await asCaller(context, input.caller, input.scope, (tx) =>
    listObjectsV2(tx, bucketId, {
      prefix,
      delimited,
      // One more than asked tells whether there is a next page.
      limit: limit + 1,
      column,
      order,
      after: cursor ? { sortKey: cursor.startAfter, at: cursor.after } : undefined,
    }),
  );
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const lastTime = column === 'name' ? null : last?.[column];
  return json({
    hasNext,
    nextCursor:
      hasNext && last
        ? encodeCursor({
            startAfter: last.sort_key,
            order,
            column,
            after: lastTime ? lastTime.toISOString() : undefined,
          })
        : undefined,
    nextCursorKey: hasNext ? last?.name : undefined,
    folders: page.filter((row) => row.id === null).map(render),
    objects: page.filter((row) => row.id !== null).map(render),
  });
}
