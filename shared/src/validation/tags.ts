/** Tag rules (link-creation 5 and 9). */
import { TAG_LENGTH } from '../constants.ts';
import { ERROR_CODES } from '../errors.ts';
import { characterCount } from './text.ts';

/** Tags are lower-cased on input with spaces removed. */
export function normalizeTag(raw: string): string {
  return raw.toLowerCase().replace(/\s+/g, '');
}

/** The length error of one normalized tag, or null. */
export function tagLengthError(tag: string): string | null {
  const length = characterCount(tag);
  if (length < TAG_LENGTH.min) return ERROR_CODES.tag_too_short.message;
  if (length > TAG_LENGTH.max) return ERROR_CODES.tag_too_long.message;
  return null;
}

export type TagErrors = Record<`tags.${number}`, string>;

/**
 * Normalizes a tag list, drops empty tags, and reports errors per index of the list that is
 * sent (`tags.N`): too short, too long, or a duplicate of an earlier tag.
 */
export function validateTags(rawTags: readonly string[]): { tags: string[]; errors: TagErrors } {
  const tags = rawTags.map(normalizeTag).filter((tag) => tag !== '');
  const errors: TagErrors = {};
  const seen = new Set<string>();
  tags.forEach((tag, index) => {
    const error = tagLengthError(tag) ?? (seen.has(tag) ? ERROR_CODES.tag_duplicate.message : null);
    if (error != null) errors[`tags.${index}`] = error;
    seen.add(tag);
  });
  return { tags, errors };
}
