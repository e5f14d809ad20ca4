import { describe, expect, it } from 'vitest';
import { legacyCreateFlash } from './legacyFlash.ts';

describe('legacyCreateFlash', () => {
  const consent = { termsAccepted: true, ccpaAccepted: true };

  it('prefills url and alias, creating at once when terms and CCPA allow', () => {
    const search = new URLSearchParams('url=https%3A%2F%2Fexample.com%2Fa&alias=spring');
    expect(legacyCreateFlash(search, consent)).toEqual({
      url: 'https://example.com/a',
      alias: 'spring',
      autoSubmit: true,
    });
    expect(legacyCreateFlash(search, { ...consent, termsAccepted: false })?.autoSubmit).toBe(false);
    expect(legacyCreateFlash(search, { ...consent, ccpaAccepted: false })?.autoSubmit).toBe(false);
  });

  it('is no flash without a url (alias and active highlight a created link)', () => {
    expect(legacyCreateFlash(new URLSearchParams('alias=spring&active=true'), consent)).toBeNull();
  });
});
