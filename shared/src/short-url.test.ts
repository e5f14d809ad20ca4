import { describe, expect, it } from 'vitest';
import {
  formatShortUrlBase,
  parseShortUrlBase,
  PRODUCTION_SHORT_URL_BASE,
  shortUrl,
  type ShortUrlBase,
} from './short-url.ts';

const LOCAL: ShortUrlBase = { scheme: 'http', port: 54321 };

describe('shortUrl', () => {
  it('is https on the bare domain in production', () => {
    expect(shortUrl({ domain: 'shrt.example', alias: 'spring' }, PRODUCTION_SHORT_URL_BASE)).toBe(
      'https://shrt.example/spring',
    );
  });

  it("carries the local stack's scheme and gateway port", () => {
    expect(shortUrl({ domain: 'shrt.localhost', alias: 'abc' }, LOCAL)).toBe(
      'http://shrt.localhost:54321/abc',
    );
    expect(shortUrl({ domain: 'shrt.localhost', alias: 'abc' }, { ...LOCAL, port: 25321 })).toBe(
      'http://shrt.localhost:25321/abc',
    );
  });

  it("leaves out a port that is the scheme's own", () => {
    expect(shortUrl({ domain: 'a.example', alias: 'x' }, { scheme: 'https', port: 443 })).toBe(
      'https://a.example/x',
    );
    expect(shortUrl({ domain: 'a.example', alias: 'x' }, { scheme: 'http', port: 80 })).toBe(
      'http://a.example/x',
    );
    expect(shortUrl({ domain: 'a.example', alias: 'x' }, { scheme: 'https', port: 8443 })).toBe(
      'https://a.example:8443/x',
    );
  });

  it('keeps an IDN host as stored (punycode), never re-encoding it', () => {
    expect(shortUrl({ domain: 'xn--bcher-kva.example', alias: 'Buch' }, LOCAL)).toBe(
      'http://xn--bcher-kva.example:54321/Buch',
    );
    // A Unicode host stays Unicode: the stored text is the authority, not URL's parser.
    expect(shortUrl({ domain: 'bücher.example', alias: 'b' }, PRODUCTION_SHORT_URL_BASE)).toBe(
      'https://bücher.example/b',
    );
  });

  it('appends a path after the alias, with one slash whether or not it has its own', () => {
    const link = { domain: 'shrt.example', alias: 'docs' };
    expect(shortUrl({ ...link, path: 'guide/intro' }, PRODUCTION_SHORT_URL_BASE)).toBe(
      'https://shrt.example/docs/guide/intro',
    );
    expect(shortUrl({ ...link, path: '/guide' }, LOCAL)).toBe(
      'http://shrt.example:54321/docs/guide',
    );
    expect(shortUrl({ ...link, path: '' }, LOCAL)).toBe('http://shrt.example:54321/docs');
  });
});

describe('parseShortUrlBase', () => {
  it('is production when unset or blank', () => {
    for (const text of [undefined, null, '', '   ']) {
      expect(parseShortUrlBase(text)).toEqual(PRODUCTION_SHORT_URL_BASE);
    }
  });

  it('reads a scheme and an optional port around {domain}', () => {
    expect(parseShortUrlBase('http://{domain}:54321')).toEqual(LOCAL);
    expect(parseShortUrlBase(' HTTPS://{domain}/ ')).toEqual({ scheme: 'https', port: null });
    expect(parseShortUrlBase('https://{domain}:8443')).toEqual({ scheme: 'https', port: 8443 });
  });

  it('round-trips what formatShortUrlBase writes', () => {
    for (const base of [LOCAL, PRODUCTION_SHORT_URL_BASE, { scheme: 'https', port: 1 } as const]) {
      expect(parseShortUrlBase(formatShortUrlBase(base))).toEqual(base);
    }
    expect(formatShortUrlBase(LOCAL)).toBe('http://{domain}:54321');
  });

  it('refuses anything else, naming the variable', () => {
    for (const text of [
      'http://shrt.localhost:54321',
      'ftp://{domain}',
      '{domain}:54321',
      'http://{domain}:0',
      'http://{domain}:65536',
      'http://{domain}:54321/base',
      'http://{domain}:port',
    ]) {
      expect(() => parseShortUrlBase(text, 'VITE_SHORT_URL_BASE')).toThrow(
        `VITE_SHORT_URL_BASE must look like https://{domain} or http://{domain}:54321, got "${text}".`,
      );
    }
  });
});
