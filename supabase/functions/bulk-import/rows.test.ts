import assert from 'node:assert/strict';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { rowsFromGrid } from './rows.ts';

Deno.test('a header names the columns in any order and case; other columns are ignored', () => {
  const rows = rowsFromGrid(
    [
      ['Notes', ' TAGS ', 'Custom Alias', 'Long  URL'],
      ['n', 'a;b', 'mine', ' https://a.example/ '],
    ],
    true,
  );
  assert.deepEqual(rows, [{ row: 2, url: 'https://a.example/', alias: 'mine', tags: 'a;b' }]);
});

Deno.test('without a header the columns are url, alias, tags; missing cells are empty', () => {
  assert.deepEqual(
    rowsFromGrid([['https://a.example/'], ['https://b.example/', 'b', 't']], false),
    [
      { row: 1, url: 'https://a.example/', alias: '', tags: '' },
      { row: 2, url: 'https://b.example/', alias: 'b', tags: 't' },
    ],
  );
});

Deno.test('blank rows are skipped, and the header is the first non-blank row', () => {
  const rows = rowsFromGrid([[''], ['url'], ['', ''], ['https://a.example/'], ['  ']], true);
  assert.deepEqual(rows, [{ row: 4, url: 'https://a.example/', alias: '', tags: '' }]);
});

Deno.test('a row without a url stays (it becomes a per-row error), unlike a blank row', () => {
  const rows = rowsFromGrid(
    [
      ['url', 'alias'],
      ['', 'lonely'],
    ],
    true,
  );
  assert.deepEqual(rows, [{ row: 2, url: '', alias: 'lonely', tags: '' }]);
});

Deno.test('no url column in the header, no data rows: refused', () => {
  const refused = (message: string) => (error: unknown) =>
    error instanceof FileRefusal && error.message === message;
  assert.throws(() => rowsFromGrid([['alias'], ['x']], true), refused(FILE_MESSAGES.noUrlColumn));
  assert.throws(() => rowsFromGrid([['url']], true), refused(FILE_MESSAGES.noRows));
  assert.throws(() => rowsFromGrid([[''], ['']], false), refused(FILE_MESSAGES.noRows));
  assert.throws(() => rowsFromGrid([], true), refused(FILE_MESSAGES.noRows));
});
