import assert from 'node:assert/strict';
import { parseCsv } from './csv.ts';
import { csvCell, escapeFormula, resultCsv } from './result-csv.ts';

Deno.test('cells a spreadsheet would run as formulas get a leading apostrophe', () => {
  for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "=cmd|' /C calc'!A0"]) {
    assert.equal(escapeFormula(cell), `'${cell}`);
  }
  for (const cell of ['https://a.example/?a=-1', 'x=1', '', ' =1']) {
    assert.equal(escapeFormula(cell), cell);
  }
});

Deno.test('cells with separators, quotes or line breaks are quoted', () => {
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('=A1\n'), `"'=A1\n"`);
});

Deno.test('the result CSV has a header and one escaped line per row, and reads back', () => {
  const text = resultCsv([
    {
      row: 2,
      url: '=HYPERLINK("http://evil.example","x")',
      alias: '',
      shortUrl: '',
      tags: '',
      status: 'failed',
      errors: 'url: The url must be a valid URL.',
    },
    {
      row: 3,
      url: 'https://a.example/',
      alias: 'abc',
      shortUrl: 'https://sho.rt/abc',
      tags: 'a,b',
      status: 'created',
      errors: '',
    },
  ]);
  assert.ok(text.endsWith('\r\n'));
  assert.deepEqual(parseCsv(text), [
    ['row', 'url', 'alias', 'short_url', 'tags', 'status', 'errors'],
    [
      '2',
      `'=HYPERLINK("http://evil.example","x")`,
      '',
      '',
      '',
      'failed',
      'url: The url must be a valid URL.',
    ],
    ['3', 'https://a.example/', 'abc', 'https://sho.rt/abc', 'a,b', 'created', ''],
  ]);
});
