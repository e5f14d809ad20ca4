import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address.ts';

const none = parseTrustedProxies('');
const loopback = parseTrustedProxies('127.0.0.1, ::1');
const proxies = parseTrustedProxies('10.0.0.0/8,127.0.0.1');

describe('clientAddress', () => {
  it('is the socket’s peer when nobody is trusted, whatever the caller forwards', () => {
    expect(clientAddress('127.0.0.1', '192.0.2.10', none)).toBe('127.0.0.1');
    expect(clientAddress('::ffff:203.0.113.5', '192.0.2.10, 8.8.8.8', none)).toBe('203.0.113.5');
    expect(clientAddress('2001:db8::1', undefined, none)).toBe('2001:db8::1');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('127.0.0.2', '192.0.2.10', loopback)).toBe('127.0.0.2');
  });

  it('reads a trusted proxy’s chain from the right, skipping trusted hops', () => {
    expect(clientAddress('127.0.0.1', '193.0.6.139', loopback)).toBe('193.0.6.139');
    expect(clientAddress('::ffff:127.0.0.1', '1.2.3.4, 8.8.8.8, 10.1.2.3', proxies)).toBe(
      '8.8.8.8',
    );
    expect(clientAddress('::1', ['1.2.3.4', '8.8.8.8'], loopback)).toBe('8.8.8.8');
  });

  it('stops at garbage, and takes the leftmost when every hop is trusted', () => {
    expect(clientAddress('127.0.0.1', '8.8.8.8, unknown, 10.0.0.7', proxies)).toBe('10.0.0.7');
    expect(clientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2', proxies)).toBe('10.0.0.1');
    expect(clientAddress('127.0.0.1', '', loopback)).toBe('127.0.0.1');
  });

  it('refuses a list it cannot read rather than trusting a guess', () => {
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseTrustedProxies('localhost')).toThrow(/localhost/);
  });
});
