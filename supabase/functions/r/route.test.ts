import assert from 'node:assert/strict';
import { parseRoute, publicPath } from './route.ts';

Deno.test('the function name in front of the path is the runtime’s, not the visitor’s', () => {
  assert.equal(publicPath('/r'), '/');
  assert.equal(publicPath('/r/abc'), '/abc');
  assert.equal(publicPath('/r/r'), '/r');
  // Served without the runtime's prefix (e.g. straight from Deno): the path as it is.
  assert.equal(publicPath('/abc'), '/abc');
});

Deno.test('the root, with or without the function name', () => {
  assert.deepEqual(parseRoute('/r'), { kind: 'root' });
  assert.deepEqual(parseRoute('/r/'), { kind: 'root' });
  assert.deepEqual(parseRoute('/'), { kind: 'root' });
});

Deno.test('an alias, with the path after it kept for the destination', () => {
  assert.deepEqual(parseRoute('/r/Spring-Sale_2'), {
    kind: 'link',
    alias: 'Spring-Sale_2',
    addPath: '',
  });
  assert.deepEqual(parseRoute('/r/abc/docs/page%201'), {
    kind: 'link',
    alias: 'abc',
    addPath: 'docs/page%201',
  });
  assert.deepEqual(parseRoute('/r/abc/'), { kind: 'link', alias: 'abc', addPath: '' });
});

Deno.test('the preview route, and the preview route without an alias', () => {
  assert.deepEqual(parseRoute('/r/preview/deprecated/abc'), {
    kind: 'preview',
    alias: 'abc',
    addPath: '',
  });
  assert.deepEqual(parseRoute('/r/preview/deprecated/abc/x/y'), {
    kind: 'preview',
    alias: 'abc',
    addPath: 'x/y',
  });
  assert.deepEqual(parseRoute('/r/preview/deprecated'), { kind: 'root' });
  assert.deepEqual(parseRoute('/r/preview/deprecated/'), { kind: 'root' });
  // `preview` alone is an (reserved) alias like any other.
  assert.deepEqual(parseRoute('/r/preview'), { kind: 'link', alias: 'preview', addPath: '' });
});

Deno.test('paths no alias can have', () => {
  for (const path of ['/r/favicon.ico', '/r/%F0%9F%98%80', '/r/a%2Fb', `/r/${'a'.repeat(51)}`]) {
    assert.deepEqual(parseRoute(path), { kind: 'unknown' }, path);
  }
  assert.deepEqual(parseRoute('/r/preview/deprecated/bad.alias'), { kind: 'unknown' });
});

Deno.test('a `+` after the alias (raw or encoded) asks for its preview', () => {
  assert.deepEqual(parseRoute('/r/abc+'), { kind: 'preview', alias: 'abc', addPath: '' });
  assert.deepEqual(parseRoute('/r/abc%2b/x'), { kind: 'preview', alias: 'abc', addPath: 'x' });
  assert.deepEqual(parseRoute('/r/abc++'), { kind: 'unknown' });
  assert.deepEqual(parseRoute('/r/+'), { kind: 'unknown' });
});

Deno.test('the TLS ask path, which no alias can shadow', () => {
  assert.deepEqual(parseRoute('/r/.well-known/tls-ask'), { kind: 'tls-ask' });
  assert.deepEqual(parseRoute('/.well-known/tls-ask'), { kind: 'tls-ask' });
  assert.deepEqual(parseRoute('/r/.well-known/tls-ask/more'), { kind: 'unknown' });
  assert.deepEqual(parseRoute('/r/.well-known'), { kind: 'unknown' });
});
