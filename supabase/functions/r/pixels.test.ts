/**
 * The pixel page and who gets it (pixels.ts), without the stack: the ids inside the providers'
 * snippets, the nonce on every script and in the policy, the bounded way on, and the visitors
 * who opted out.
 */
import assert from 'node:assert/strict';
import type { LinkPixel } from '../../../shared/src/pixels.ts';
import { PIXEL_REDIRECT_DELAY_MS, pixelPageResponse, pixelsWanted } from './pixels.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const ALL: LinkPixel[] = [
  { provider: 'meta', id: '123456789012345' },
  { provider: 'google_ads', id: 'AW-123456789' },
  { provider: 'linkedin', id: '5123456' },
  { provider: 'tiktok', id: 'C4A1B2C3D4E5F6G7H8I9' },
];

const request = (headers: Record<string, string>) =>
  new Request('http://s.test/r/abc', { headers: { 'user-agent': CHROME, ...headers } });

Deno.test('browsers get the pixels; robots, DNT, GPC and the opt-out cookie do not', () => {
  assert.equal(pixelsWanted(request({})), true);
  assert.equal(pixelsWanted(request({ dnt: '0' })), true);
  assert.equal(pixelsWanted(request({ cookie: 'a=1; tinyStrictPrivate=false' })), true);
  assert.equal(pixelsWanted(request({ dnt: '1' })), false);
  assert.equal(pixelsWanted(request({ 'sec-gpc': '1' })), false);
  assert.equal(pixelsWanted(request({ cookie: 'a=1; tinyStrictPrivate=true' })), false);
  assert.equal(
    pixelsWanted(request({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })),
    false,
  );
  assert.equal(pixelsWanted(request({ 'user-agent': 'curl/8.5.0' })), false);
  assert.equal(pixelsWanted(new Request('http://s.test/r/abc')), false, 'no User-Agent: a robot');
});

Deno.test(
  'the page runs each provider’s snippet with its id, under the response’s nonce',
  async () => {
    const answer = pixelPageResponse(ALL, 'https://example.com/sale?x=1&y="2"', 'TESTNONCE');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const policy = answer.headers.get('content-security-policy') ?? '';
    assert.match(
      policy,
      /script-src 'nonce-TESTNONCE' 'strict-dynamic' https:\/\/connect\.facebook\.net/,
    );
    assert.match(policy, /default-src 'none'/);
    assert.doesNotMatch(policy, /unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
    const html = await answer.text();
    assert.match(html, /fbq\('init',"123456789012345"\);fbq\('track','PageView'\)/);
    assert.match(html, /gtag\/js\?id=AW-123456789/);
    assert.match(html, /gtag\('config',"AW-123456789"\)/);
    assert.match(html, /_linkedin_data_partner_ids\.push\("5123456"\)/);
    assert.match(html, /ttq\.load\("C4A1B2C3D4E5F6G7H8I9"\);ttq\.page\(\)/);
    // Every script carries the nonce; nothing else runs.
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.equal(scripts.length, 6);
    for (const tag of scripts) assert.match(tag, /nonce="TESTNONCE"/);
    // On within a second: by script, by meta refresh, by a link; the address escaped for each.
    assert.match(
      html,
      new RegExp(
        `location\\.replace\\("https://example.com/sale\\?x=1&y=\\\\"2\\\\""\\)\\},${PIXEL_REDIRECT_DELAY_MS}\\)`,
      ),
    );
    assert.ok(PIXEL_REDIRECT_DELAY_MS <= 1_000);
    assert.match(
      html,
      /<meta http-equiv="refresh" content="1;url=https:\/\/example.com\/sale\?x=1&amp;y=&quot;2&quot;">/,
    );
    assert.match(
      html,
      /<a href="https:\/\/example.com\/sale\?x=1&amp;y=&quot;2&quot;"[^>]*>continue to example.com<\/a>/,
    );
    assert.match(
      html,
      /<noscript><img [^>]*src="https:\/\/www.facebook.com\/tr\?id=123456789012345/,
    );
  },
);

Deno.test('only the providers on the page are allowed, and a bad id never reaches it', async () => {
  const answer = pixelPageResponse(
    [
      { provider: 'linkedin', id: '5123456' },
      // Not what the database lets through; were it ever cached, it is left out.
      { provider: 'meta', id: `1');alert(1);//` },
    ],
    'https://example.com/</script><script>alert(2)</script>',
    'N',
  );
  const policy = answer.headers.get('content-security-policy') ?? '';
  assert.match(policy, /script-src 'nonce-N' 'strict-dynamic' https:\/\/snap\.licdn\.com;/);
  assert.match(policy, /frame-src 'none'/);
  assert.doesNotMatch(policy, /facebook/);
  const html = await answer.text();
  assert.doesNotMatch(html, /alert\(1\)/);
  assert.doesNotMatch(html, /fbq/);
  assert.doesNotMatch(html, /<\/script><script>alert/);
  assert.match(html, /\\u003c\/script\\u003e/);
});

Deno.test('each page has its own nonce', () => {
  const nonceOf = (answer: Response) =>
    /'nonce-([^']+)'/.exec(answer.headers.get('content-security-policy') ?? '')?.[1];
  const first = nonceOf(pixelPageResponse(ALL, 'https://example.com/'));
  const second = nonceOf(pixelPageResponse(ALL, 'https://example.com/'));
  assert.ok(first && first.length >= 22);
  assert.notEqual(first, second);
});
