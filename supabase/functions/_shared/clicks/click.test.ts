import assert from 'node:assert/strict';
import { clickFacts, clientIp, referrerHost } from './click.ts';

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

Deno.test(
  'clickFacts reads time, device, referrer host, QR flag and address from the request',
  () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const request = new Request('https://tiny.test/r/abc1234?qr=1', {
      headers: {
        'user-agent': chrome,
        referer: 'https://News.Example.com/story?id=42&email=a@b.c',
        'x-forwarded-for': '203.0.113.7, 10.0.0.2',
      },
    });
    assert.deepEqual(clickFacts(request, at), {
      at,
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
      isBot: false,
      referrerHost: 'news.example.com',
      isQr: true,
      remoteIp: '203.0.113.7',
    });
  },
);

Deno.test('a bare request is a bot click with nothing else known', () => {
  const facts = clickFacts(new Request('https://tiny.test/r/abc1234'));
  assert.equal(facts.isBot, true);
  assert.equal(facts.device, 'bot');
  assert.equal(facts.referrerHost, null);
  assert.equal(facts.isQr, false);
  assert.equal(facts.remoteIp, null);
  assert.ok(Math.abs(facts.at.getTime() - Date.now()) < 5_000);
});

Deno.test('referrerHost keeps only http(s) hosts', () => {
  assert.equal(referrerHost('http://Example.org:8080/a'), 'example.org');
  for (const header of [null, '', 'not a url', 'android-app://com.slack/', 'file:///etc/passwd'])
    assert.equal(referrerHost(header), null, String(header));
});

Deno.test('clientIp takes the first forwarded address, then X-Real-IP', () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  assert.equal(
    clientIp(headers({ 'x-forwarded-for': '::ffff:198.51.100.4, 10.0.0.1' })),
    '198.51.100.4',
  );
  assert.equal(
    clientIp(headers({ 'x-forwarded-for': 'unknown', 'x-real-ip': '2001:DB8::1' })),
    '2001:db8::1',
  );
  assert.equal(clientIp(headers({ 'x-forwarded-for': 'garbage' })), null);
  assert.equal(clientIp(headers({})), null);
});
