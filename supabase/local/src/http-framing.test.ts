import { describe, expect, it } from 'vitest';
import {
  BodyFraming,
  parseRequestHead,
  parseResponseHead,
  requestBody,
  responseBody,
} from './http-framing.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

/** How many bytes `framing` takes of `text` fed in `cuts`-separated pieces; -1 if broken. */
function taken(framing: BodyFraming, text: string, cuts: number[]): number {
  const data = bytes(text);
  let total = 0;
  let from = 0;
  for (const to of [...cuts, data.length]) {
    const piece = data.subarray(from, to);
    from = to;
    const n = framing.take(piece);
    if (n < 0) return -1;
    total += n;
    if (framing.done) {
      expect(n, 'a done body takes nothing more').toBeLessThanOrEqual(piece.length);
      break;
    }
    expect(n).toBe(piece.length);
  }
  return total;
}

describe('parseRequestHead', () => {
  it('reads the method, origin-form target and fields, values without surrounding spaces', () => {
    expect(
      parseRequestHead('GET /rest/v1/a?x=1 HTTP/1.1\r\nHost: a.test\r\nX-Empty:\r\nX-Y: \t b c \t'),
    ).toEqual({
      method: 'GET',
      target: '/rest/v1/a?x=1',
      fields: ['Host', 'a.test', 'X-Empty', '', 'X-Y', 'b c'],
    });
  });

  it('refuses what Node would refuse or frame differently: obs-fold, controls, 1.0, spaces', () => {
    for (const head of [
      'GET / HTTP/1.0\r\nHost: a',
      'GET http://a/ HTTP/1.1\r\nHost: a',
      'GET / HTTP/1.1\r\nHost: a\r\n folded',
      'GET / HTTP/1.1\r\nHost : a',
      'GET / HTTP/1.1\r\nHost: a\x00b',
      'GET / HTTP/1.1\r\nHost: a\nX: b',
      'GET /a b HTTP/1.1\r\nHost: a',
      'get / HTTP/1.1\r\nHost: a',
      '\r\nGET / HTTP/1.1\r\nHost: a',
    ])
      expect(parseRequestHead(head), JSON.stringify(head)).toBeUndefined();
  });
});

describe('parseResponseHead', () => {
  it('keeps the status line as sent', () => {
    expect(parseResponseHead('HTTP/1.1 201 Created\r\nContent-Length: 0')).toEqual({
      status: 201,
      line: 'HTTP/1.1 201 Created',
      fields: ['Content-Length', '0'],
    });
    expect(parseResponseHead('HTTP/1.0 200 OK')).toBeUndefined();
  });
});

describe('requestBody', () => {
  it('frames by one length, or chunked alone; refuses anything ambiguous', () => {
    expect(requestBody([])?.done).toBe(true);
    expect(requestBody(['Content-Length', '0'])?.done).toBe(true);
    expect(requestBody(['content-length', '5', 'Content-Length', '5'])?.done).toBe(false);
    expect(requestBody(['Transfer-Encoding', 'Chunked'])?.done).toBe(false);
    expect(requestBody(['Content-Length', '5', 'Content-Length', '6'])).toBeUndefined();
    expect(requestBody(['Content-Length', '-1'])).toBeUndefined();
    expect(requestBody(['Content-Length', '5', 'Transfer-Encoding', 'chunked'])).toBeUndefined();
    expect(requestBody(['Transfer-Encoding', 'gzip, chunked'])).toBeUndefined();
  });
});

describe('responseBody', () => {
  it('has none for HEAD, 1xx, 204 and 304, whatever the fields say', () => {
    const fields = ['Content-Length', '10'];
    expect(responseBody(fields, 200, 'HEAD')?.done).toBe(true);
    for (const status of [100, 204, 304])
      expect(responseBody(fields, status, 'GET')?.done).toBe(true);
    expect(responseBody(fields, 200, 'GET')?.done).toBe(false);
  });

  it('is chunked when chunked is the last coding, else ends with the connection', () => {
    expect(responseBody(['Transfer-Encoding', 'gzip, chunked'], 200, 'GET')?.untilClose).toBe(
      false,
    );
    expect(responseBody(['Transfer-Encoding', 'gzip'], 200, 'GET')?.untilClose).toBe(true);
    expect(responseBody([], 200, 'GET')?.untilClose).toBe(true);
    expect(responseBody(['Content-Length', 'x'], 200, 'GET')).toBeUndefined();
  });
});

describe('BodyFraming', () => {
  it('takes exactly a Content-Length body, however it is cut', () => {
    const body = 'GET / HTTP/1.1\r\n\r\n';
    for (let cut = 0; cut <= body.length + 3; cut++)
      expect(taken(BodyFraming.length(body.length), `${body}NEXT`, [cut])).toBe(body.length);
  });

  it('takes exactly a chunked body with extensions and trailers, however it is cut', () => {
    const inner = 'GET / HTTP/1.1\r\n\r\n';
    const body = `5;name="v"\r\nhello\r\n${inner.length.toString(16)}\r\n${inner}\r\n0\r\nTrailer-A: 1\r\n\r\n`;
    const text = `${body}GET /next HTTP/1.1\r\n\r\n`;
    for (let cut = 0; cut <= text.length; cut++)
      for (const second of [cut, Math.min(cut + 3, text.length)])
        expect(taken(BodyFraming.chunked(), text, [cut, second]), `cut at ${cut}`).toBe(
          body.length,
        );
  });

  it('takes a chunked body fed byte by byte', () => {
    const body = '3\r\nabc\r\n0\r\n\r\n';
    const framing = BodyFraming.chunked();
    for (let i = 0; i < body.length; i++) {
      expect(framing.done).toBe(false);
      expect(framing.take(bytes(body[i]!))).toBe(1);
    }
    expect(framing.done).toBe(true);
    expect(framing.take(bytes('more'))).toBe(0);
  });

  it('reports broken chunked framing: a bad size, a size line or trailer too long', () => {
    expect(BodyFraming.chunked().take(bytes('zz\r\n'))).toBe(-1);
    expect(BodyFraming.chunked().take(bytes('5\n'))).toBe(-1);
    expect(BodyFraming.chunked().take(bytes(`5;${'x'.repeat(2000)}`))).toBe(-1);
    expect(BodyFraming.chunked().take(bytes('0\r\nnot a field\r\n'))).toBe(-1);
  });

  it('takes everything of a body that ends with the connection', () => {
    const framing = BodyFraming.untilClose();
    expect(framing.take(bytes('HTTP/1.1 200 OK\r\n\r\n'), 3)).toBe(16);
    expect(framing.done).toBe(false);
  });
});
