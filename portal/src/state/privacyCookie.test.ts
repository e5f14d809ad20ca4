import { describe, expect, it } from 'vitest';
import { NEVER_EXPIRES, readStrictPrivate, strictPrivateCookie } from './privacyCookie.ts';

describe('the tinyStrictPrivate cookie', () => {
  it('is written as true or false, for the whole site, never expiring', () => {
    expect(strictPrivateCookie(true)).toBe(
      'tinyStrictPrivate=true; expires=Fri, 31 Dec 9999 23:59:59 GMT; path=/; SameSite=Lax',
    );
    expect(strictPrivateCookie(false)).toMatch(/^tinyStrictPrivate=false; /);
    expect(Date.parse(NEVER_EXPIRES)).toBeGreaterThan(Date.parse('9999-01-01T00:00:00Z'));
  });

  it('is read back among other cookies; anything else counts as not chosen', () => {
    expect(readStrictPrivate('a=1; tinyStrictPrivate=true; b=2')).toBe(true);
    expect(readStrictPrivate('tinyStrictPrivate=false')).toBe(false);
    expect(readStrictPrivate('tinyStrictPrivate=yes')).toBeNull();
    expect(readStrictPrivate('xtinyStrictPrivate=true')).toBeNull();
    expect(readStrictPrivate('')).toBeNull();
  });
});
