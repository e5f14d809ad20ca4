import assert from 'node:assert/strict';
import { checkRow } from './validate-row.ts';

const row = (url: string, alias = '', tags = '') => ({ row: 7, url, alias, tags });

Deno.test('a good row is normalised: url, alias, tags', async () => {
  const check = await checkRow(row('HTTPS://Sub.Example.COM/a?b=1', 'spring', ' News , SPORT;; '));
  assert.deepEqual(check, {
    ok: true,
    row: {
      row: 7,
      url: 'https://sub.example.com/a?b=1',
      alias: 'spring',
      random_alias: null,
      tags: ['news', 'sport'],
    },
  });
});

Deno.test('a row without an alias gets a first random draw: 7 base62 characters', async () => {
  const check = await checkRow(row('https://a.example/'));
  assert.ok(check.ok);
  assert.equal(check.row.alias, null);
  assert.match(check.row.random_alias ?? '', /^[0-9A-Za-z]{7}$/);
});

Deno.test("hostile destinations become the row's url error", async () => {
  const hostile: [string, string][] = [
    ['', 'The URL field is required.'],
    ['javascript:alert(1)', 'This URL is not allowed.'],
    ['http://127.0.0.1/', 'This URL is not allowed.'],
    ['http://2130706433/', 'This URL is not allowed.'], // decimal loopback
    ['http://0x7f.1/', 'This URL is not allowed.'], // hex
    ['http://[::ffff:169.254.169.254]/', 'This URL is not allowed.'], // IPv4-mapped metadata
    ['http://metadata.google.internal/', 'This URL is not allowed.'],
    ['http://10.0.0.1/admin', 'This URL is not allowed.'],
    ['https://bank.example@evil.example/', 'This URL is not allowed.'],
    ['https://a.example/\r\nSet-Cookie: x', 'The url must be a valid URL.'],
    [`https://a.example/${'a'.repeat(8200)}`, 'The url must be a valid URL.'],
    ['not a url', 'The url must be a valid URL.'],
  ];
  for (const [url, message] of hostile) {
    const check = await checkRow(row(url));
    assert.deepEqual(check, { ok: false, row: 7, errors: { url: [message] } }, url);
  }
});

Deno.test('tag errors are reported per tag index, with the url error beside them', async () => {
  const check = await checkRow(row('ftp://a.example/', '', 'ok,x,ok'));
  assert.deepEqual(check, {
    ok: false,
    row: 7,
    errors: {
      url: ['This URL is not allowed.'],
      'tags.1': ['The tag must be at least 2 characters.'],
      'tags.2': ['The tag has already been taken.'],
    },
  });
});
