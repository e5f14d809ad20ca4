import assert from 'node:assert/strict';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { MAX_FILE_BYTES, MAX_ROWS } from './limits.ts';
import { readBulkFile } from './read-file.ts';
import { spreadsheet, utf8, workbookEntry, zip } from './test-files.ts';

const refusedWith = (message: string) => (error: unknown) => {
  assert.ok(error instanceof FileRefusal, `expected a FileRefusal, got ${String(error)}`);
  assert.equal(error.message, message);
  return true;
};

const HEADER = ['url', 'alias', 'tags'];
const DATA = [
  ['https://a.example/one', 'first', 'news,sport'],
  ['https://b.example/two', '', ''],
];
const EXPECTED_WITH_HEADER = [
  { row: 2, url: 'https://a.example/one', alias: 'first', tags: 'news,sport' },
  { row: 3, url: 'https://b.example/two', alias: '', tags: '' },
];
const EXPECTED_WITHOUT_HEADER = EXPECTED_WITH_HEADER.map((row) => ({ ...row, row: row.row - 1 }));

const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csv = (rows: string[][]) => rows.map((row) => row.map(quoted).join(',')).join('\r\n');

for (const type of ['xlsx', 'ods', 'xls'] as const) {
  Deno.test(`${type}: rows with a header, columns found by name`, async () => {
    const file = spreadsheet(type, [
      ['Tags', 'Long URL', 'Alias'],
      ...DATA.map(([u, a, t]) => [t, u, a]),
    ]);
    const read = await readBulkFile(`links.${type}`, file, true);
    assert.equal(read.type, type);
    assert.deepEqual(read.rows, EXPECTED_WITH_HEADER);
  });

  Deno.test(`${type}: rows without a header, columns by position`, async () => {
    const read = await readBulkFile(`links.${type}`, spreadsheet(type, DATA), false);
    assert.deepEqual(read.rows, EXPECTED_WITHOUT_HEADER);
  });

  Deno.test(`${type}: a formula cell gives its cached value; nothing is evaluated`, async () => {
    const file = spreadsheet(type, [['url'], ['placeholder'], [42]], {
      A2: { formula: 'CONCATENATE("https://","evil.example/")', cached: 'https://cached.example/' },
    });
    const read = await readBulkFile(`links.${type}`, file, true);
    assert.deepEqual(
      read.rows.map((row) => row.url),
      ['https://cached.example/', '42'],
    );
  });

  Deno.test(`${type}: a header only is refused`, async () => {
    await assert.rejects(
      readBulkFile(`links.${type}`, spreadsheet(type, [HEADER]), true),
      refusedWith(FILE_MESSAGES.noRows),
    );
  });
}

Deno.test('csv: rows with and without a header', async () => {
  const withHeader = await readBulkFile('links.csv', utf8(csv([HEADER, ...DATA])), true);
  assert.deepEqual(withHeader.rows, EXPECTED_WITH_HEADER);
  const withoutHeader = await readBulkFile('links.CSV', utf8(csv(DATA)), false);
  assert.deepEqual(withoutHeader.rows, EXPECTED_WITHOUT_HEADER);
});

Deno.test('csv: a UTF-8 byte-order mark is stripped and the header still recognised', async () => {
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(csv([HEADER, ...DATA]))]);
  const read = await readBulkFile('links.csv', bom, true);
  assert.deepEqual(read.rows, EXPECTED_WITH_HEADER);
});

Deno.test('csv: malformed UTF-8 is refused with its row number', async () => {
  const latin1 = new Uint8Array([...utf8('url\nhttps://a.example/\nhttps://caf'), 0xe9, 0x2e]);
  await assert.rejects(
    readBulkFile('links.csv', latin1, true),
    refusedWith(FILE_MESSAGES.encoding(3)),
  );
});

Deno.test('empty file, blank lines only and header only are refused', async () => {
  await assert.rejects(
    readBulkFile('links.csv', new Uint8Array(0), true),
    refusedWith(FILE_MESSAGES.empty),
  );
  await assert.rejects(
    readBulkFile('links.csv', utf8('\r\n\r\n'), false),
    refusedWith(FILE_MESSAGES.noRows),
  );
  await assert.rejects(
    readBulkFile('links.csv', utf8('url,alias\r\n'), true),
    refusedWith(FILE_MESSAGES.noRows),
  );
  await assert.rejects(
    readBulkFile('links.csv', new Uint8Array([0xef, 0xbb, 0xbf]), true),
    refusedWith(FILE_MESSAGES.noRows),
  );
});

Deno.test('a header without a url column is refused', async () => {
  await assert.rejects(
    readBulkFile('links.csv', utf8('alias,tags\nx,y'), true),
    refusedWith(FILE_MESSAGES.noUrlColumn),
  );
});

Deno.test('more than MAX_ROWS data rows are refused; exactly MAX_ROWS pass', async () => {
  const lines = (count: number) => 'url\n' + 'https://a.example/\n'.repeat(count);
  assert.equal(
    (await readBulkFile('links.csv', utf8(lines(MAX_ROWS)), true)).rows.length,
    MAX_ROWS,
  );
  await assert.rejects(
    readBulkFile('links.csv', utf8(lines(MAX_ROWS + 1)), true),
    refusedWith(FILE_MESSAGES.tooManyRows),
  );
  const sheet = spreadsheet('xlsx', [
    ['url'],
    ...Array.from({ length: MAX_ROWS + 1 }, () => ['https://a.example/']),
  ]);
  await assert.rejects(
    readBulkFile('links.xlsx', sheet, true),
    refusedWith(FILE_MESSAGES.tooManyRows),
  );
});

Deno.test('a file over 10 MB is refused before it is read', async () => {
  const big = new Uint8Array(MAX_FILE_BYTES + 1).fill(0x61);
  await assert.rejects(readBulkFile('links.csv', big, true), refusedWith(FILE_MESSAGES.size));
});

Deno.test('wrong types are refused by their content, whatever the name says', async () => {
  const xlsx = spreadsheet('xlsx', DATA);
  const ods = spreadsheet('ods', DATA);
  const xls = spreadsheet('xls', DATA);
  const pdf = utf8('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n');
  const cases: [string, Uint8Array<ArrayBuffer>][] = [
    ['links.csv', xlsx], // a workbook called csv
    ['links.csv', xls],
    ['links.csv', new Uint8Array([0x61, 0x00, 0x62, 0x00])], // UTF-16 / binary text
    ['links.xlsx', utf8(csv(DATA))], // text called xlsx
    ['links.xlsx', ods], // the other zip-based type
    ['links.ods', xlsx],
    ['links.xls', xlsx],
    ['links.xls', pdf],
    ['links.xlsx', zip([await workbookEntry('readme.txt', utf8('not a workbook'))])],
    ['links.pdf', pdf], // an extension that is not accepted at all
    ['links', utf8(csv(DATA))],
  ];
  for (const [name, bytes] of cases) {
    await assert.rejects(readBulkFile(name, bytes, false), refusedWith(FILE_MESSAGES.type), name);
  }
});

Deno.test('a zip bomb is refused from its directory before anything is inflated', async () => {
  const megabyte = new Uint8Array(1024 * 1024);
  // 150 MB of zeros in ~150 KB: over the total and over the ratio.
  const bomb = zip([await workbookEntry('xl/workbook.xml', megabyte, { repeat: 150 })]);
  assert.ok(bomb.length < 1024 * 1024);
  await assert.rejects(
    readBulkFile('bomb.xlsx', bomb, true),
    refusedWith(FILE_MESSAGES.expandsTooMuch),
  );
  // 20 MB: under the total, but a thousand times its compressed size.
  const dense = zip([await workbookEntry('xl/workbook.xml', megabyte, { repeat: 20 })]);
  await assert.rejects(
    readBulkFile('dense.xlsx', dense, true),
    refusedWith(FILE_MESSAGES.expandsTooMuch),
  );
});

Deno.test(
  'a zip whose directory understates an entry is refused when it inflates past it',
  async () => {
    const megabyte = new Uint8Array(1024 * 1024);
    const entry = await workbookEntry('xl/workbook.xml', megabyte, { repeat: 8 });
    // Claims no more than its compressed size: the directory looks harmless.
    const lying = zip([{ ...entry, declaredSize: entry.stored.length }]);
    await assert.rejects(
      readBulkFile('lying.xlsx', lying, true),
      refusedWith(FILE_MESSAGES.expandsTooMuch),
    );
  },
);

Deno.test('a broken workbook inside a valid zip is refused as unreadable', async () => {
  const broken = zip([
    await workbookEntry('[Content_Types].xml', utf8('<Types/>')),
    await workbookEntry('xl/workbook.xml', utf8('<workbook><sheets><sheet name="x" r:id="rId1"/>')),
  ]);
  await assert.rejects(readBulkFile('broken.xlsx', broken, true), (error: unknown) => {
    assert.ok(error instanceof FileRefusal);
    assert.ok([FILE_MESSAGES.unreadable, FILE_MESSAGES.noRows].includes(error.message as never));
    return true;
  });
});
