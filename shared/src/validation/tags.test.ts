import { describe, expect, it } from 'vitest';
import { normalizeTag, tagLengthError, validateTags } from './tags.ts';

describe('tags (link-creation 5 and 9)', () => {
  it('lower-cases tags and removes spaces on input', () => {
    expect(normalizeTag('  Summer Sale 2025 ')).toBe('summersale2025');
    expect(normalizeTag('Q3\tLaunch')).toBe('q3launch');
  });

  it('accepts 2 and 45 characters, refuses 1 and 46', () => {
    expect(tagLengthError('ab')).toBeNull();
    expect(tagLengthError('a'.repeat(45))).toBeNull();
    expect(tagLengthError('a')).toBe('The tag must be at least 2 characters.');
    expect(tagLengthError('a'.repeat(46))).toBe('The tag must not be greater than 45 characters.');
  });

  it('counts characters, not UTF-16 code units', () => {
    expect(tagLengthError('😀')).toBe('The tag must be at least 2 characters.');
    expect(tagLengthError('😀'.repeat(45))).toBeNull();
  });

  it('ignores empty tags and reports errors per index as tags.N of the list sent', () => {
    expect(validateTags(['News', '', '  ', 'x', 'NEWS', 'b'.repeat(46), 'ok'])).toEqual({
      tags: ['news', 'x', 'news', 'b'.repeat(46), 'ok'],
      errors: {
        'tags.1': 'The tag must be at least 2 characters.',
        'tags.2': 'The tag has already been taken.',
        'tags.3': 'The tag must not be greater than 45 characters.',
      },
    });
  });

  it('finds duplicates after normalization', () => {
    expect(validateTags(['Big Deal', 'bigdeal']).errors).toEqual({
      'tags.1': 'The tag has already been taken.',
    });
  });

  it('passes a clean list untouched', () => {
    expect(validateTags(['alpha', 'beta'])).toEqual({ tags: ['alpha', 'beta'], errors: {} });
    expect(validateTags([])).toEqual({ tags: [], errors: {} });
  });
});
