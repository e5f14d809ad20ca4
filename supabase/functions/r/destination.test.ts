import assert from 'node:assert/strict';
import { destinationFor, MAX_LOCATION_LENGTH, visitorPairs } from './destination.ts';

Deno.test('without visitor parameters the destination is kept byte for byte', () => {
  const destination = 'https://example.com/a%20b?x=1+2&y=%C3%A9#top';
  assert.equal(destinationFor(destination, '', ''), destination);
  assert.equal(destinationFor(destination, '', '?'), destination);
  for (const kept of [
    'https://example.com/',
    'https://example.com/p#a?b',
    'https://example.com/p?x#',
    'https://example.com/p?x=1#top?y',
  ])
    assert.equal(destinationFor(kept, '', ''), kept);
});

Deno.test('an empty query of the destination is left out, whatever the visitor adds', () => {
  assert.equal(destinationFor('https://example.com/p?', '', ''), 'https://example.com/p');
  assert.equal(destinationFor('https://example.com/p?#top', '', '?'), 'https://example.com/p#top');
  assert.equal(destinationFor('https://example.com/p?', '', '?a=1'), 'https://example.com/p?a=1');
  assert.equal(destinationFor('https://example.com/p?', 'x', ''), 'https://example.com/p/x');
});

Deno.test('visitor parameters are added after the destination’s own', () => {
  assert.equal(
    destinationFor('https://example.com/p?utm_source=news', '', '?ref=abc&page=2'),
    'https://example.com/p?utm_source=news&ref=abc&page=2',
  );
  assert.equal(
    destinationFor('https://example.com/p', '', '?ref=abc'),
    'https://example.com/p?ref=abc',
  );
});

Deno.test('the destination’s own parameters win over a visitor’s of the same name', () => {
  assert.equal(
    destinationFor('https://example.com/?utm_source=news&a=1', '', '?utm_source=spam&b=2'),
    'https://example.com/?utm_source=news&a=1&b=2',
  );
  // Names compare decoded: utm%5Fsource is utm_source.
  assert.equal(
    destinationFor('https://example.com/?utm_source=news', '', '?utm%5Fsource=spam'),
    'https://example.com/?utm_source=news',
  );
});

Deno.test('repeated visitor parameters are all kept; the qr flag is ours and dropped', () => {
  assert.equal(
    destinationFor('https://example.com/', '', '?tag=a&qr=1&tag=b'),
    'https://example.com/?tag=a&tag=b',
  );
  assert.deepEqual(visitorPairs('?qr=1'), []);
});

Deno.test('the fragment stays at the end', () => {
  assert.equal(
    destinationFor('https://www.openstreetmap.org/?layers=H#map=12/52.52/13.40', '', '?x=1'),
    'https://www.openstreetmap.org/?layers=H&x=1#map=12/52.52/13.40',
  );
});

Deno.test('a path after the alias is appended to the destination’s path', () => {
  assert.equal(
    destinationFor('https://example.com/docs/', 'guide/intro', '?v=2'),
    'https://example.com/docs/guide/intro?v=2',
  );
  assert.equal(destinationFor('https://example.com', 'a', ''), 'https://example.com/a');
  assert.equal(
    destinationFor('https://example.com/docs?lang=en#s', 'x', ''),
    'https://example.com/docs/x?lang=en#s',
  );
});

Deno.test('malformed escapes in a visitor name are compared as written', () => {
  assert.equal(
    destinationFor('https://example.com/?a=1', '', '?%zz=1'),
    'https://example.com/?a=1&%zz=1',
  );
});

Deno.test('visitor parameters that would make the address too long are dropped', () => {
  const long = `?junk=${'x'.repeat(MAX_LOCATION_LENGTH)}`;
  assert.equal(destinationFor('https://example.com/?a=1', '', long), 'https://example.com/?a=1');
});
