import assert from 'node:assert/strict';
import { decodeCsv, firstInvalidUtf8, parseCsv, recordAt } from './csv.ts';
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const refusal = (message: string) => (error: unknown) =>
  error instanceof FileRefusal && error.message === message;

Deno.test('parseCsv reads RFC 4180: quoted separators, quotes, line breaks, CRLF and LF', () => {
  const text = 'url,alias\r\n"https://a.example/?q=1,2",x\n"say ""hi""","multi\r\nline"\r\n';
  assert.deepEqual(parseCsv(text), [
    ['url', 'alias'],
    ['https://a.example/?q=1,2', 'x'],
    ['say "hi"', 'multi\r\nline'],
  ]);
});

Deno.test('parseCsv keeps blank lines as empty records so row numbers match the file', () => {
  assert.deepEqual(parseCsv('a\n\nb'), [['a'], [''], ['b']]);
  assert.deepEqual(parseCsv('a\r\rb\r'), [['a'], [''], ['b']]);
});

Deno.test('parseCsv uses semicolons when the first record has them and no commas', () => {
  assert.deepEqual(parseCsv('url;tags\nhttps://a.example;"x,y"'), [
    ['url', 'tags'],
    ['https://a.example', 'x,y'],
  ]);
  assert.deepEqual(parseCsv('url,tags\nhttps://a.example/;x'), [
    ['url', 'tags'],
    ['https://a.example/;x'],
  ]);
});

Deno.test('parseCsv keeps a stray quote inside an unquoted field as written', () => {
  assert.deepEqual(parseCsv('ab"c,d\n"q"r,s'), [
    ['ab"c', 'd'],
    ['qr', 's'],
  ]);
});

Deno.test('parseCsv refuses a quoted field that never closes, naming its row', () => {
  assert.throws(() => parseCsv('a\nb\n"open,\nc'), refusal(FILE_MESSAGES.unterminatedQuote(3)));
});

Deno.test('parseCsv refuses more records than allowed', () => {
  assert.throws(() => parseCsv('a\nb\nc\nd', 3), refusal(FILE_MESSAGES.tooManyRows));
  assert.equal(parseCsv('a\nb\nc\n', 3).length, 3);
});

Deno.test('decodeCsv strips a UTF-8 byte-order mark and keeps the text', () => {
  const text = decodeCsv(
    bytes(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('url\nhttps://é.example')),
  );
  assert.equal(text, 'url\nhttps://é.example');
});

Deno.test(
  'firstInvalidUtf8 finds stray, truncated, overlong, surrogate and out-of-range bytes',
  () => {
    assert.equal(firstInvalidUtf8(new TextEncoder().encode('ok é € 😀')), -1);
    assert.equal(firstInvalidUtf8(bytes(0x61, 0x80)), 1); // stray continuation byte
    assert.equal(firstInvalidUtf8(bytes(0x61, 0xe2, 0x82)), 1); // truncated at the end
    assert.equal(firstInvalidUtf8(bytes(0xc0, 0xaf)), 0); // overlong "/"
    assert.equal(firstInvalidUtf8(bytes(0xe0, 0x80, 0xaf)), 0); // overlong, three bytes
    assert.equal(firstInvalidUtf8(bytes(0xed, 0xa0, 0x80)), 0); // UTF-16 surrogate
    assert.equal(firstInvalidUtf8(bytes(0xf4, 0x90, 0x80, 0x80)), 0); // above U+10FFFF
    assert.equal(firstInvalidUtf8(bytes(0xe9, 0x61)), 0); // Latin-1 "é" then "a"
  },
);

Deno.test('decodeCsv refuses malformed UTF-8 with the row it is in', () => {
  const latin1 = [
    ...new TextEncoder().encode('url\nhttps://a.example\n"two\nlines",x\nhttps://caf'),
    0xe9,
  ];
  assert.throws(() => decodeCsv(bytes(...latin1)), refusal(FILE_MESSAGES.encoding(4)));
  assert.throws(() => decodeCsv(bytes(0xef, 0xbb, 0xbf, 0xff)), refusal(FILE_MESSAGES.encoding(1)));
});

Deno.test('recordAt counts CRLF once and ignores line breaks inside quotes', () => {
  const text = new TextEncoder().encode('a\r\n"b\r\nc"\r\nd');
  assert.equal(recordAt(text, text.length - 1), 3);
});
