import { describe, expect, it } from 'vitest';
import { RequestFraming } from './relay-framing.ts';

const LINE = 'x-shortlane-relay: s 127.0.0.1\r\n';

/** What the framing sends on for `chunks`, as text. */
function framed(chunks: string[], headLimit?: number): string {
  const framing = new RequestFraming(Buffer.from(LINE, 'latin1'), headLimit);
  return chunks
    .map((chunk) => framing.push(Buffer.from(chunk, 'latin1')).toString('latin1'))
    .join('');
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: a.test\r\n\r\n`;
const announced = (head: string) => head.replace('\r\n', `\r\n${LINE}`);

describe('RequestFraming', () => {
  it('announces every head of a kept-alive or pipelined connection', () => {
    expect(framed([get('/a'), get('/b')])).toBe(announced(get('/a')) + announced(get('/b')));
    expect(framed([get('/a') + get('/b')])).toBe(announced(get('/a')) + announced(get('/b')));
  });

  it('holds a head back until it is complete, however it is cut', () => {
    const text = get('/a') + get('/b');
    for (let cut = 1; cut < text.length; cut++)
      expect(framed([text.slice(0, cut), text.slice(cut)])).toBe(
        announced(get('/a')) + announced(get('/b')),
      );
  });

  it('passes a Content-Length body untouched, even one that looks like a head', () => {
    const body = get('/not-a-request');
    const post = `POST /a HTTP/1.1\r\nHost: a.test\r\ncontent-LENGTH: ${body.length}\r\n\r\n`;
    expect(framed([post + body.slice(0, 5), body.slice(5) + get('/b')])).toBe(
      announced(post) + body + announced(get('/b')),
    );
  });

  it('passes a chunked body, extensions and trailers untouched', () => {
    const post = 'POST /a HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n';
    const body = `5;x=1\r\nGET /\r\n${(17).toString(16)}\r\n${get('/x').slice(0, 17)}\r\n0\r\nT: 1\r\n\r\n`;
    const text = post + body + get('/b');
    for (const cut of [post.length + 3, post.length + 12, text.length - get('/b').length - 3])
      expect(framed([text.slice(0, cut), text.slice(cut)])).toBe(
        announced(post) + body + announced(get('/b')),
      );
  });

  it('passes on untouched what it cannot frame: a head too long, a bad chunk size or length', () => {
    const long = `GET / HTTP/1.1\r\nX: ${'a'.repeat(100)}\r\n\r\n`;
    expect(framed([long.slice(0, 60), long.slice(60) + get('/b')], 50)).toBe(long + get('/b'));
    const chunked = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(framed([`${chunked}zz\r\n${get('/b')}`])).toBe(
      `${announced(chunked)}zz\r\n${get('/b')}`,
    );
    const twoLengths = 'POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab';
    expect(framed([twoLengths + get('/b')])).toBe(twoLengths + get('/b'));
  });
});
