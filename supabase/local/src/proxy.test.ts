import { describe, expect, it } from 'vitest';
import { forwardHeaders } from './proxy.ts';

describe('forwardHeaders', () => {
  it('drops hop-by-hop headers and those the Connection header names, in any case', () => {
    const raw = [
      'Host',
      'shrt.localhost',
      'Connection',
      'Keep-Alive, X-Hop',
      'Keep-Alive',
      'timeout=5',
      'X-Hop',
      'secret',
      'TE',
      'trailers',
      'Upgrade',
      'websocket',
      'Proxy-Authorization',
      'Basic eA==',
      'Transfer-Encoding',
      'chunked',
      'User-Agent',
      'test',
    ];
    expect(forwardHeaders(raw)).toEqual([
      'Host',
      'shrt.localhost',
      // The next leg frames the body again from it.
      'Transfer-Encoding',
      'chunked',
      'User-Agent',
      'test',
    ]);
  });

  it('keeps repeated headers in order, drops what the caller refuses, appends its own', () => {
    const raw = ['Set-Cookie', 'a=1', 'X-Forwarded-For', '6.6.6.6', 'Set-Cookie', 'b=2'];
    const dropped: string[] = [];
    const headers = forwardHeaders(
      raw,
      (name, value) => {
        dropped.push(`${name}=${value}`);
        return name === 'x-forwarded-for';
      },
      ['x-forwarded-for', '203.0.113.9'],
    );
    expect(headers).toEqual([
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'x-forwarded-for',
      '203.0.113.9',
    ]);
    // The caller sees lower-cased names with their values.
    expect(dropped).toEqual(['set-cookie=a=1', 'x-forwarded-for=6.6.6.6', 'set-cookie=b=2']);
  });
});
