import { describe, expect, it } from 'vitest';
import { hostOfHead } from './gateway-front.ts';

describe('hostOfHead', () => {
  it('is the Host, lower-cased, without port or trailing dot, in any header case', () => {
    expect(hostOfHead('GET /abc HTTP/1.1\r\nUser-Agent: x\r\nHost: Shrt.Localhost:54321')).toBe(
      'shrt.localhost',
    );
    expect(hostOfHead('HEAD / HTTP/1.0\r\nhost:  pro.localhost.  ')).toBe('pro.localhost');
    expect(hostOfHead('GET / HTTP/1.1\r\nHOST: [::1]:54321')).toBe('[::1]');
  });

  it('is undefined for a head the gateway must judge: no Host, two Hosts, not HTTP/1', () => {
    expect(hostOfHead('GET / HTTP/1.1\r\nX-Host: shrt.localhost')).toBeUndefined();
    expect(hostOfHead('GET / HTTP/1.1\r\nHost: a.localhost\r\nHost: b.localhost')).toBeUndefined();
    expect(hostOfHead('PRI * HTTP/2.0\r\n\r\nSM')).toBeUndefined();
    // A blank line first: the relay would put its line in the wrong place.
    expect(hostOfHead('\r\nGET / HTTP/1.1\r\nHost: shrt.localhost')).toBeUndefined();
  });
});
