import assert from 'node:assert/strict';
import { destinations } from '../../tests/fixtures/hostile-destinations.ts';
import {
  bannedDomainList,
  checkDestination,
  destinationError,
  type DestinationPolicy,
  domainAndParents,
  MAX_STORED_URL_LENGTH,
  MAX_URL_BYTES,
  normaliseDomain,
  type UrlErrorCode,
  type UrlRefusalReason,
} from './url-safety.ts';

const policy: DestinationPolicy = {
  shortDomains: ['tinyurl.test', 'Short.Example'],
  isBanned: bannedDomainList(['evil.example', 'Bänned.example.', 'phish.co.uk']),
};

type Refused = [input: unknown, code: UrlErrorCode, reason: UrlRefusalReason];

async function assertRefused([input, code, reason]: Refused) {
  const label = JSON.stringify(input)?.slice(0, 80);
  const result = await checkDestination(input, policy);
  assert.equal(result.ok, false, `${label} was accepted as ${result.ok && result.url}`);
  if (result.ok) return;
  assert.deepEqual([result.code, result.reason], [code, reason], label);
}

Deno.test('accepts public http(s) URLs and returns them normalised', async () => {
  const cases: [string, string, string][] = [
    ['https://example.com', 'https://example.com/', 'example.com'],
    ['  https://example.com/path?q=1#top  ', 'https://example.com/path?q=1#top', 'example.com'],
    ['HTTP://WWW.Example.COM:80/A', 'http://www.example.com/A', 'www.example.com'],
    ['https://example.com:8443/x', 'https://example.com:8443/x', 'example.com'],
    ['https://example.com./', 'https://example.com/', 'example.com'], // trailing dot dropped
    ['https://exämple.com/ü', 'https://xn--exmple-cua.com/%C3%BC', 'xn--exmple-cua.com'],
    ['https://xn--exmple-cua.com/', 'https://xn--exmple-cua.com/', 'xn--exmple-cua.com'],
    ['http://example.com/a b', 'http://example.com/a%20b', 'example.com'],
    ['http://8.8.8.8/dns', 'http://8.8.8.8/dns', '8.8.8.8'],
    ['http://134744072/', 'http://8.8.8.8/', '8.8.8.8'], // decimal spelling of a public address
    ['http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/', '[2606:4700:4700::1111]'],
    ['http://[::ffff:8.8.8.8]/', 'http://[::ffff:808:808]/', '[::ffff:808:808]'],
    [
      'https://sub_domain.example.com/',
      'https://sub_domain.example.com/',
      'sub_domain.example.com',
    ],
    ['https://notevil.example/', 'https://notevil.example/', 'notevil.example'], // not a subdomain
    [
      'https://tinyurl.test.example.org/',
      'https://tinyurl.test.example.org/',
      'tinyurl.test.example.org',
    ],
    [
      'https://example.com/redirect?to=http://127.0.0.1',
      'https://example.com/redirect?to=http://127.0.0.1',
      'example.com',
    ],
    ['https://example.com/@user', 'https://example.com/@user', 'example.com'],
  ];
  for (const [input, url, host] of cases) {
    const result = await checkDestination(input, policy);
    assert.deepEqual(result, { ok: true, url, host }, input);
  }
});

Deno.test('requires a URL', async () => {
  for (const input of [undefined, null, '', '   '])
    await assertRefused([input, 'url_required', 'empty']);
  for (const input of [42, {}, ['https://example.com']])
    await assertRefused([input, 'url_invalid', 'not_text']);
});

Deno.test('refuses malformed URLs', async () => {
  const cases: string[] = [
    'example.com',
    '//example.com',
    'http:example.com',
    'http:/example.com',
    'http:/\\/example.com',
    'https://',
    'http://256.1.1.1/',
    'http://1.2.3.4.5/',
    'http://0x100000000/',
    'http://[fe80::1%25eth0]/',
    'http://exa mple.com/',
    'http://example..com/',
    'http://.example.com/',
    'http://example.com../',
    'http://xn--a.com/',
    'http://a!b.com/',
    `http://${'a'.repeat(64)}.com/`,
    `http://${'abcdefghi.'.repeat(26)}com/`, // 263 characters
  ];
  for (const input of cases) await assertRefused([input, 'url_invalid', 'malformed']);
});

Deno.test('refuses schemes other than http and https', async () => {
  for (const input of [
    'javascript:alert(1)',
    'JavaScript://example.com/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://example.com/',
    'ws://example.com/',
    'mailto:someone@example.com',
    'blob:https://example.com/uuid',
  ])
    await assertRefused([input, 'url_not_allowed', 'scheme']);
});

Deno.test('refuses CR, LF, tab, NUL and other control characters anywhere', async () => {
  for (const input of [
    'https://example.com/\r\nSet-Cookie: a=b',
    'https://example.com/\n',
    '\nhttps://example.com/',
    'https://exa\tmple.com/',
    'https://example.com/\u0000',
    'https://example.com/\u001b[31m',
    'https://example.com/\u007f',
    'https://example.com/\u2028',
    'https://example.com/\u0085',
  ])
    await assertRefused([input, 'url_invalid', 'control_character']);
});

Deno.test('refuses URLs over 8192 bytes as typed, or 2048 characters once encoded', async () => {
  const base = 'https://example.com/';
  const fits = base + 'a'.repeat(MAX_STORED_URL_LENGTH - base.length);
  assert.equal((await checkDestination(fits, policy)).ok, true);
  await assertRefused([fits + 'a', 'url_invalid', 'too_long']);
  // Multi-byte characters count as their UTF-8 bytes.
  await assertRefused([base + 'é'.repeat(MAX_URL_BYTES / 2), 'url_invalid', 'too_long']);
  // Short as typed, too long once percent-encoded.
  await assertRefused([base + ' '.repeat(700) + 'x', 'url_invalid', 'too_long']);
});

Deno.test(
  'refuses loopback, private, link-local and metadata addresses in every notation',
  async () => {
    const cases: [string, string][] = [
      ['http://127.0.0.1/', 'loopback'],
      ['http://127.0.0.1./', 'loopback'],
      ['http://2130706433/', 'loopback'], // decimal
      ['http://0x7f.1/', 'loopback'], // hex, shortened
      ['http://0x7f000001/', 'loopback'],
      ['http://017700000001/', 'loopback'], // octal
      ['http://0177.0.0.1/', 'loopback'],
      ['http://127.1/', 'loopback'], // shortened
      ['http://127.000.000.001/', 'loopback'],
      ['http://%31%32%37.0.0.1/', 'loopback'], // percent-encoded
      ['http://１２７.０.０.１/', 'loopback'], // full-width digits
      ['http://[::1]/', 'loopback'],
      ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'], // IPv4-mapped IPv6
      ['http://[::ffff:7f00:1]/', 'loopback'],
      ['http://[::127.0.0.1]/', 'loopback'], // IPv4-compatible
      ['http://[64:ff9b::127.0.0.1]/', 'loopback'], // NAT64
      ['http://[2002:7f00:1::]/', 'loopback'], // 6to4
      ['http://0.0.0.0/', 'unspecified'],
      ['http://0/', 'unspecified'],
      ['http://[::]/', 'unspecified'],
      ['http://10.0.0.1/', 'private'],
      ['http://10.255.255.255/', 'private'],
      ['http://167772161/', 'private'], // 10.0.0.1 in decimal
      ['http://172.16.0.1/', 'private'],
      ['http://172.31.255.255/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://0xc0.0xa8.1.1/', 'private'],
      ['http://[::ffff:192.168.1.1]/', 'private'],
      ['http://100.64.0.1/', 'shared'],
      ['http://100.100.100.200/', 'shared'], // Alibaba Cloud metadata
      ['http://169.254.169.254/latest/meta-data/', 'link-local'], // AWS, GCP, Azure metadata
      ['http://2852039166/', 'link-local'], // 169.254.169.254 in decimal
      ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
      ['http://[fe80::]/', 'link-local'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://[fc00::1]/', 'unique-local'],
      ['http://[fd00:ec2::254]/', 'unique-local'], // AWS metadata over IPv6
      ['http://224.0.0.1/', 'multicast'],
      ['http://255.255.255.255/', 'reserved'],
      ['http://192.0.0.192/', 'reserved'], // Oracle Cloud metadata
      ['http://192.0.2.1/', 'documentation'],
    ];
    for (const [input, range] of cases) {
      const result = await checkDestination(input, policy);
      assert.equal(result.ok, false, input);
      if (result.ok) continue;
      assert.deepEqual(
        [result.code, result.reason, result.range],
        ['url_not_allowed', 'internal_address', range],
        input,
      );
    }
  },
);

Deno.test('refuses internal and metadata host names', async () => {
  for (const input of [
    'http://localhost/',
    'http://LOCALHOST:3000/',
    'http://localhost./',
    'http://app.localhost/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata.google.internal./',
    'http://metadata/',
    'http://metadata.goog/',
    'http://instance-data/',
    'http://printer.local/',
    'http://router.home.arpa/',
    'http://1.0.0.127.in-addr.arpa/',
    'http://intranet/',
    'http://db.internal/',
  ])
    await assertRefused([input, 'url_not_allowed', 'internal_host']);
});

Deno.test('refuses credentials and ambiguous authorities', async () => {
  for (const input of [
    'http://good.com@127.0.0.1/',
    'http://good.com@evil.example/',
    'https://user:pass@example.com/',
    'https://@example.com/',
    'https://:@example.com/',
    'https://example.com%40evil.example/',
  ]) {
    const result = await checkDestination(input, policy);
    assert.equal(result.ok, false, input);
  }
  await assertRefused(['http://good.com@127.0.0.1/', 'url_not_allowed', 'userinfo']);
  await assertRefused(['https://user:pass@example.com/', 'url_not_allowed', 'userinfo']);
  await assertRefused(['https://@example.com/', 'url_not_allowed', 'userinfo']);
  await assertRefused(['http://good.com\\@127.0.0.1/', 'url_not_allowed', 'ambiguous_authority']);
  await assertRefused([
    'http://evil.example\\.good.com/',
    'url_not_allowed',
    'ambiguous_authority',
  ]);
});

Deno.test('refuses our own short domains and their subdomains', async () => {
  for (const input of [
    'https://tinyurl.test/abc',
    'https://TINYURL.TEST./abc',
    'https://www.tinyurl.test/abc',
    'http://short.example/x',
    'http://a.b.short.example/x',
  ])
    await assertRefused([input, 'url_not_allowed', 'own_domain']);
});

Deno.test('refuses banned domains and every subdomain, in any case and spelling', async () => {
  for (const input of [
    'https://evil.example/',
    'https://EVIL.Example/',
    'https://evil.example./',
    'https://www.evil.example/login',
    'https://a.b.c.evil.example/',
    'https://bänned.example/', // entered as Unicode, banned as Unicode
    'https://xn--bnned-gra.example/', // its punycode
    'https://BÄNNED.example/',
    'https://x.phish.co.uk/',
  ])
    await assertRefused([input, 'url_banned', 'banned']);
});

Deno.test('asks isBanned once with the host and its parents, and awaits it', async () => {
  const asked: (readonly string[])[] = [];
  const result = await checkDestination('https://a.b.Example.org/', {
    shortDomains: [],
    isBanned: (domains) => {
      asked.push(domains);
      return Promise.resolve(domains.includes('example.org'));
    },
  });
  assert.deepEqual(asked, [['a.b.example.org', 'b.example.org', 'example.org', 'org']]);
  assert.equal(result.ok, false);
});

Deno.test('normaliseDomain and domainAndParents', () => {
  assert.equal(normaliseDomain(' Exämple.COM. '), 'xn--exmple-cua.com');
  assert.equal(normaliseDomain('example.com'), 'example.com');
  for (const bad of [
    '',
    'http://example.com',
    'example.com/x',
    'user@example.com',
    'example.com:80',
    'a b.com',
  ])
    assert.equal(normaliseDomain(bad), null, bad);
  assert.deepEqual(domainAndParents('a.b.c'), ['a.b.c', 'b.c', 'c']);
  assert.throws(() => bannedDomainList(['not a domain']), /Not a domain name/);
});

Deno.test('destinationError is the 422 the apps map to the url field', async () => {
  const result = await checkDestination('https://evil.example/', policy);
  assert.equal(result.ok, false);
  if (result.ok) return;
  const error = destinationError(result);
  assert.equal(error.status, 422);
  assert.equal(error.code, 'url_banned');
  assert.equal(error.message, 'This domain is banned.');
  assert.deepEqual(error.errors, { url: ['This domain is banned.'] });
  const required = await checkDestination('', policy);
  assert.ok(!required.ok);
  assert.equal(destinationError(required).message, 'The URL field is required.');
});

Deno.test('judges the shared hostile and safe destinations as the database rule does', async () => {
  const shared: DestinationPolicy = {
    shortDomains: destinations.shortDomains,
    isBanned: bannedDomainList(destinations.bannedDomains),
  };
  for (const entry of destinations.hostile) {
    const result = await checkDestination(entry.url, shared);
    assert.equal(result.ok, false, `${entry.url} was accepted`);
    if (result.ok) continue;
    assert.deepEqual(
      [result.code, result.reason, result.range],
      [entry.code, entry.reason, entry.range],
      entry.url,
    );
  }
  for (const entry of destinations.safe) {
    const result = await checkDestination(entry.url, shared);
    assert.deepEqual(result, { ok: true, url: entry.stored, host: entry.host }, entry.url);
  }
});
