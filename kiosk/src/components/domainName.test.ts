import { describe, expect, it } from 'vitest';
import { normalizeDomainName, validateDomainName } from './domainName.ts';

describe('domain names', () => {
  it('normalises case, spaces and the root dot', () => {
    expect(normalizeDomainName(' Evil.Example.COM. ')).toBe('evil.example.com');
  });

  it('accepts names the database accepts and refuses the rest', () => {
    expect(validateDomainName('malware.test')).toBeUndefined();
    expect(validateDomainName('xn--bcher-kva.example')).toBeUndefined();
    for (const bad of ['localhost', 'http://x.com', 'a..b.com', '-x.com', 'x.c0m']) {
      expect(validateDomainName(bad), bad).toBe('Enter a domain name such as example.com.');
    }
  });
});
