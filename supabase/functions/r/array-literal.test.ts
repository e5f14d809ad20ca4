import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { plainArray, textArray } from './array-literal.ts';

useStackAsRuntimeEnv();

const TEXTS = [
  'Mobile Safari',
  '',
  'NULL',
  'null',
  'a,b',
  '{x}',
  ' padded ',
  'q"uote',
  'back\\slash',
  '\\"',
  'é 中',
  null,
];

Deno.test('array literals: the forms built', () => {
  assert.equal(plainArray([]), '{}');
  assert.equal(plainArray(['t', null, 'f']), '{t,NULL,f}');
  assert.equal(textArray([]), '{}');
  assert.equal(textArray(['a b', null, 'q"\\']), '{"a b",NULL,"q\\"\\\\"}');
});

Deno.test('array literals: Postgres reads back exactly the values sent', async () => {
  const db = sql();
  try {
    // As JSON: the driver reads a NULL element of a text[] as the text "NULL".
    const [texts] = await db<{ values: (string | null)[] }[]>`
      select to_json(${textArray(TEXTS)}::text[]) as values`;
    assert.deepEqual(texts?.values, TEXTS);

    const ids = [crypto.randomUUID(), null, crypto.randomUUID()];
    const at = new Date('2026-11-27T17:48:42.123Z');
    const [plain] = await db<{ ids: (string | null)[]; times: Date[]; flags: boolean[] }[]>`
      select to_json(${plainArray(ids)}::uuid[]) as ids,
        ${plainArray([at.toISOString()])}::timestamptz[] as times,
        ${plainArray(['t', 'f'])}::boolean[] as flags`;
    assert.deepEqual(plain?.ids, ids);
    assert.deepEqual(plain?.times, [at]);
    assert.deepEqual(plain?.flags, [true, false]);
  } finally {
    await closeSql();
  }
});
