import assert from 'node:assert/strict';
import { escapeHtml, PAGES, pageResponse, previewResponse } from './pages.ts';

Deno.test('each page has its status, a title as heading, and the strict headers', async () => {
  for (const [kind, text] of Object.entries(PAGES)) {
    const page = pageResponse(kind as keyof typeof PAGES);
    assert.equal(page.status, text.status, kind);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(page.headers.get('x-robots-tag'), 'noindex');
    const html = await page.text();
    assert.match(html, /<html lang="en">/);
    assert.ok(html.includes(`<h1>${escapeHtml(text.title)}</h1>`), kind);
    assert.ok(html.includes('<main>'), kind);
  }
});

Deno.test('HEAD gets the status and headers without a body', async () => {
  const page = pageResponse('expired', true);
  assert.equal(page.status, 410);
  assert.equal(await page.text(), '');
});

Deno.test('extra headers are added (Allow on 405)', () => {
  const page = pageResponse('method-not-allowed', false, { Allow: 'GET, HEAD' });
  assert.equal(page.headers.get('allow'), 'GET, HEAD');
});

Deno.test(
  'the preview shows the destination escaped and continues through the short URL',
  async () => {
    const destination = 'https://example.com/?q="><script>alert(1)</script>';
    const page = previewResponse(destination, '/abc?x=1&y=2');
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(!html.includes('<script>'));
    assert.ok(html.includes('&quot;&gt;&lt;script&gt;'));
    assert.ok(html.includes('href="/abc?x=1&amp;y=2"'));
    assert.ok(html.includes('This short link goes to example.com'));
  },
);
