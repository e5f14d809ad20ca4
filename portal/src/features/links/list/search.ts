import { normalizeTag } from '@shortlane/shared/validation/tags.ts';
import {
  LINK_SEARCH_FIELDS,
  type LinkSearch,
  type LinkSearchField,
} from '../../../data/links-list-query.ts';

/**
 * The lists' search box speaks the spec's `type:query` (link-creation 7): `alias:bar`,
 * `tag:foo`, `url:example.com`, `description:deck`; text without a known type looks in the alias
 * and the destination. An unknown prefix is part of the text (`https://…` stays a URL search).
 */

const TYPED = /^([a-z]+):(.*)$/is;

function isTypedField(value: string): value is Exclude<LinkSearchField, 'any'> {
  return value !== 'any' && (LINK_SEARCH_FIELDS as readonly string[]).includes(value);
}

/** The search a box's text asks for, or null for an empty box. */
export function parseLinkSearch(text: string): LinkSearch | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = TYPED.exec(trimmed);
  const field = match?.[1]?.toLowerCase();
  if (match && field && isTypedField(field)) {
    const rest = (match[2] ?? '').trim();
    // Tags are stored normalized (lower case, no spaces), so the search is too.
    const term = field === 'tag' ? normalizeTag(rest) : rest;
    return term === '' ? null : { field, term };
  }
  return { field: 'any', term: trimmed };
}

/** The box's text for a search (after creation the list shows `alias:<new alias>`). */
export function formatLinkSearch(search: LinkSearch): string {
  return search.field === 'any' ? search.term : `${search.field}:${search.term}`;
}
