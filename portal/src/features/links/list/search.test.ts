import { describe, expect, it } from 'vitest';
import { formatLinkSearch, parseLinkSearch } from './search.ts';

describe('parseLinkSearch', () => {
  it('reads nothing from an empty or blank box', () => {
    expect(parseLinkSearch('')).toBeNull();
    expect(parseLinkSearch('   ')).toBeNull();
  });

  it('reads the spec type:query form for each known type', () => {
    expect(parseLinkSearch('alias:spring')).toEqual({ field: 'alias', term: 'spring' });
    expect(parseLinkSearch('url:example.com/path')).toEqual({
      field: 'url',
      term: 'example.com/path',
    });
    expect(parseLinkSearch('description: board deck ')).toEqual({
      field: 'description',
      term: 'board deck',
    });
    expect(parseLinkSearch('ALIAS:Spring')).toEqual({ field: 'alias', term: 'Spring' });
  });

  it('normalizes a tag search as tags are stored: lower case, no spaces', () => {
    expect(parseLinkSearch('tag: Q4 Campaign')).toEqual({ field: 'tag', term: 'q4campaign' });
  });

  it('treats text without a known type as a search in alias and destination', () => {
    expect(parseLinkSearch('spring')).toEqual({ field: 'any', term: 'spring' });
    expect(parseLinkSearch('https://shop.example.com')).toEqual({
      field: 'any',
      term: 'https://shop.example.com',
    });
    expect(parseLinkSearch('colour:red')).toEqual({ field: 'any', term: 'colour:red' });
  });

  it('reads a type with nothing after it as no search', () => {
    expect(parseLinkSearch('tag:')).toBeNull();
    expect(parseLinkSearch('alias:   ')).toBeNull();
  });

  it('writes a search back as the box shows it', () => {
    expect(formatLinkSearch({ field: 'alias', term: 'new-one' })).toBe('alias:new-one');
    expect(formatLinkSearch({ field: 'any', term: 'spring' })).toBe('spring');
    expect(parseLinkSearch(formatLinkSearch({ field: 'tag', term: 'launch' }))).toEqual({
      field: 'tag',
      term: 'launch',
    });
  });
});
