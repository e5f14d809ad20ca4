import assert from 'node:assert/strict';
import {
  canonicalIp,
  classifyIp,
  formatIp,
  inCidr,
  type IpRange,
  parseCidr,
  parseIp,
} from './ip-address.ts';

Deno.test('parseIp reads dotted quads and every IPv6 spelling', () => {
  assert.deepEqual(Array.from(parseIp('192.168.1.20')?.bytes ?? []), [192, 168, 1, 20]);
  assert.equal(parseIp('::1')?.version, 6);
  assert.equal(parseIp('[::1]')?.version, 6);
  assert.deepEqual(
    Array.from(parseIp('::ffff:127.0.0.1')?.bytes ?? []),
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1],
  );
  assert.deepEqual(parseIp('2001:DB8:0:0:0:0:0:1')?.bytes, parseIp('2001:db8::1')?.bytes);
});

Deno.test('parseIp refuses what is not exactly one address', () => {
  for (const text of [
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4', // octal-looking: refused, not guessed
    '0x7f.0.0.1',
    '2130706433',
    '1.2.3.4 ',
    '::1::',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8', // `::` must stand for at least one group
    '12345::',
    'fe80::1%eth0',
    '::ffff:1.2.3',
    'example.com',
  ])
    assert.equal(parseIp(text), null, text);
});

Deno.test('formatIp writes RFC 5952 text', () => {
  const cases: [string, string][] = [
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'], // the longest zero run is shortened
    ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'], // a single zero group stays
    ['fe80::', 'fe80::'],
    ['10.0.0.1', '10.0.0.1'],
  ];
  for (const [input, expected] of cases) {
    const ip = parseIp(input);
    assert.ok(ip, input);
    assert.equal(formatIp(ip), expected);
  }
});

Deno.test('classifyIp names each special-purpose range', () => {
  const cases: [string, IpRange][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'], // Alibaba Cloud metadata
    ['100.127.255.255', 'shared'],
    ['100.128.0.0', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'], // AWS, GCP, Azure metadata
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.0.0.192', 'reserved'], // Oracle Cloud metadata
    ['192.0.2.1', 'documentation'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'], // IPv4-compatible
    ['::2', 'unspecified'], // IPv4-compatible 0.0.0.2
    ['64:ff9b::10.0.0.1', 'private'], // NAT64
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:808:808::1', 'public'],
    ['2001::1', 'reserved'], // Teredo
    ['2001:db8::1', 'documentation'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'], // AWS metadata over IPv6
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ];
  for (const [text, range] of cases) {
    const ip = parseIp(text);
    assert.ok(ip, text);
    assert.equal(classifyIp(ip), range, text);
  }
});

Deno.test('parseCidr and inCidr match prefixes bit by bit', () => {
  const cidr = parseCidr('172.16.0.0/12');
  assert.ok(cidr);
  const inside = (text: string) => inCidr(parseIp(text)!, cidr);
  assert.equal(inside('172.16.0.0'), true);
  assert.equal(inside('172.31.255.255'), true);
  assert.equal(inside('172.32.0.0'), false);
  assert.equal(inside('::ffff:172.16.0.1'), false, 'families never match each other');
  const single = parseCidr('203.0.113.7');
  assert.equal(single?.bits, 32);
  assert.equal(inCidr(parseIp('203.0.113.7')!, single!), true);
  assert.equal(inCidr(parseIp('203.0.113.8')!, single!), false);
  const v6 = parseCidr('2001:db8::/48');
  assert.equal(inCidr(parseIp('2001:db8:0:ffff::1')!, v6!), true);
  assert.equal(inCidr(parseIp('2001:db8:1::1')!, v6!), false);
  for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/x', '10.0.0/8', '1.2.3.4/8/9', ''])
    assert.equal(parseCidr(bad), null, bad);
});

Deno.test('canonicalIp gives one spelling per client', () => {
  assert.equal(canonicalIp('::ffff:203.0.113.9'), '203.0.113.9');
  assert.equal(canonicalIp('::FFFF:CB00:7109'), '203.0.113.9');
  assert.equal(canonicalIp(' 2001:DB8:0::1 '), '2001:db8::1');
  assert.equal(canonicalIp('198.51.100.4'), '198.51.100.4');
  assert.equal(canonicalIp('unknown'), null);
});
