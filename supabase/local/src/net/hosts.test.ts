import { describe, expect, it } from 'vitest';
import { isAllowedHost, parseAllowedHosts } from './hosts.ts';

describe('isAllowedHost', () => {
  it('allows this machine, always', () => {
    for (const host of [
      'localhost',
      'api.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      'LOCALHOST.',
    ]) {
      expect(isAllowedHost(host, []), host).toBe(true);
    }
  });

  it('allows the listed hosts and, for a *. entry, their subdomains only', () => {
    const allowed = parseAllowedHosts(' hooks.example.com, *.partner.test ,');
    expect(allowed).toEqual(['hooks.example.com', '*.partner.test']);
    expect(isAllowedHost('hooks.example.com', allowed)).toBe(true);
    expect(isAllowedHost('a.b.partner.test', allowed)).toBe(true);
    for (const host of [
      'example.com',
      'evil-hooks.example.com',
      'partner.test',
      'notpartner.test',
      '10.0.0.1',
      'localhost.evil.com',
      '127.0.0.1.evil.com',
    ]) {
      expect(isAllowedHost(host, allowed), host).toBe(false);
    }
  });
});
