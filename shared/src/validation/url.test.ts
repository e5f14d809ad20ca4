import { describe, expect, it } from 'vitest';
import { validateLongUrl, validateUrlRequired } from './url.ts';

describe('long URL (link-creation 4 and 5)', () => {
  it("requires a URL: 'The URL field is required.'", () => {
    expect(validateUrlRequired('')).toBe('The URL field is required.');
    expect(validateUrlRequired('   ')).toBe('The URL field is required.');
    expect(validateUrlRequired(null)).toBe('The URL field is required.');
    expect(validateUrlRequired('https://example.com')).toBeNull();
    expect(validateLongUrl(undefined)).toBe('The URL field is required.');
  });

  it('accepts absolute http and https addresses', () => {
    expect(validateLongUrl('https://example.com/a?b=c#d')).toBeNull();
    expect(validateLongUrl(' http://example.com ')).toBeNull();
    expect(validateLongUrl('HTTPS://user:pw@例え.jp:8443/päth?q=1')).toBeNull();
    expect(validateLongUrl('http://[2001:db8::1]/')).toBeNull();
  });

  it('refuses anything that is not a web address', () => {
    for (const url of [
      'example.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'http://',
      'https:///path',
      'https://exa mple.com',
      'https://example.com/a b',
      'mailto:a@b.c',
    ]) {
      expect(validateLongUrl(url), url).toBe('The url must be a valid URL.');
    }
  });
});
