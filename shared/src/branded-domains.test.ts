import { describe, expect, it } from 'vitest';
import {
  isValidDomainName,
  isValidVanityLabel,
  normalizeDomainName,
  usageText,
} from './branded-domains.ts';

describe('branded domain names', () => {
  it('cleans what people paste into the name the database stores', () => {
    expect(normalizeDomainName('  https://Links.Example.COM/path?q=1 ')).toBe('links.example.com');
    expect(normalizeDomainName('example.com:8080')).toBe('example.com');
    expect(normalizeDomainName('example.com.')).toBe('example.com');
  });

  it('accepts valid names and refuses the rest', () => {
    for (const name of ['example.com', 'go.example.co.uk', 'xn--bcher-kva.example', 'a-b.io']) {
      expect(isValidDomainName(name), name).toBe(true);
    }
    for (const name of [
      'example',
      '-bad.com',
      'bad-.com',
      'sp ace.com',
      'e.c',
      `${'a'.repeat(64)}.com`,
      '',
    ]) {
      expect(isValidDomainName(name), name).toBe(false);
    }
  });

  it('vanity labels: 3 to 63 letters, digits and dashes', () => {
    expect(isValidVanityLabel('acme')).toBe(true);
    expect(isValidVanityLabel('ab')).toBe(false);
    expect(isValidVanityLabel('-acme')).toBe(false);
    expect(isValidVanityLabel('ac.me')).toBe(false);
  });

  it('says usage against a limit or none', () => {
    expect(usageText(1, 5)).toBe('1 of 5');
    expect(usageText(2, null)).toBe('2 (no limit)');
  });
});
