import { describe, expect, it } from 'vitest';
import { csvCell, csvText, escapeFormula } from './csv.ts';

describe('csv', () => {
  it('defuses every cell a spreadsheet would run as a formula', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'plain', ''].map(escapeFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'plain',
      '',
    ]);
  });

  it('quotes cells with commas, quotes or line breaks, after defusing them', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('writes a header and rows with CRLF line ends', () => {
    expect(csvText(['a', 'b'], [['1', '=2']])).toBe("a,b\r\n1,'=2\r\n");
    expect(csvText(['a'], [])).toBe('a\r\n');
  });
});
