import { describe, expect, it } from 'vitest';
import { applyUtm, readUtm, stripUtm, utmFieldError, validateUtm } from './utm.ts';

const COMPLETE = { utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring' };

describe('UTM builder validation (link-creation 5)', () => {
  it("requires source, medium and campaign: 'The utm {field} field is required.'", () => {
    expect(validateUtm({})).toEqual({
      utm_source: 'The utm source field is required.',
      utm_medium: 'The utm medium field is required.',
      utm_campaign: 'The utm campaign field is required.',
    });
    expect(validateUtm({ ...COMPLETE, utm_source: '   ' })).toEqual({
      utm_source: 'The utm source field is required.',
    });
    expect(validateUtm(COMPLETE)).toEqual({});
  });

  it('limits lengths to 100/50/150/50/100 at the exact boundary', () => {
    const limits = [
      ['utm_source', 100],
      ['utm_medium', 50],
      ['utm_campaign', 150],
      ['utm_term', 50],
      ['utm_content', 100],
    ] as const;
    for (const [field, max] of limits) {
      expect(utmFieldError(field, 'x'.repeat(max)), field).toBeNull();
      expect(utmFieldError(field, 'x'.repeat(max + 1)), field).toBe(
        `The utm ${field.slice(4)} must not be greater than ${max}.`,
      );
    }
    expect(utmFieldError('utm_medium', 'x'.repeat(51))).toBe(
      'The utm medium must not be greater than 50.',
    );
  });

  it('leaves term and content optional', () => {
    expect(utmFieldError('utm_term', '')).toBeNull();
    expect(utmFieldError('utm_content', null)).toBeNull();
  });
});

describe('UTM builder output (link-creation 4 and 5)', () => {
  it('adds only non-empty values, URL-encoded', () => {
    expect(
      applyUtm('https://shop.test/item', {
        ...COMPLETE,
        utm_campaign: 'spring sale & more',
        utm_term: '',
        utm_content: 'hero/banner',
      }),
    ).toBe(
      'https://shop.test/item?utm_source=news&utm_medium=email&utm_campaign=spring%20sale%20%26%20more&utm_content=hero%2Fbanner',
    );
  });

  it('replaces existing utm parameters and keeps everything else as written', () => {
    expect(
      applyUtm(
        'https://shop.test/item?utm_source=old&color=dark%20blue&utm_term=x#reviews',
        COMPLETE,
      ),
    ).toBe(
      'https://shop.test/item?color=dark%20blue&utm_source=news&utm_medium=email&utm_campaign=spring#reviews',
    );
  });

  it('strips the five utm parameters when the toggle is turned off', () => {
    expect(
      stripUtm(
        'https://shop.test/?utm_source=a&utm_medium=b&utm_campaign=c&utm_term=d&utm_content=e&id=7&utm_id=9#top',
      ),
    ).toBe('https://shop.test/?id=7&utm_id=9#top');
    expect(stripUtm('https://shop.test/?utm_source=a')).toBe('https://shop.test/');
    expect(stripUtm('https://shop.test/plain')).toBe('https://shop.test/plain');
  });

  it('reads the utm values already present, decoded', () => {
    expect(readUtm('https://shop.test/?utm_source=news&utm_campaign=spring%20sale&x=1')).toEqual({
      utm_source: 'news',
      utm_campaign: 'spring sale',
    });
  });
});
