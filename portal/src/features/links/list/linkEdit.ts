import { ERROR_CODES } from '@shortlane/shared/errors.ts';
import { MINUTE_MS } from '@shortlane/shared/time.ts';
import { validateAlias } from '@shortlane/shared/validation/alias.ts';
import { expiryError } from '@shortlane/shared/validation/expiry.ts';
import { validateTags } from '@shortlane/shared/validation/tags.ts';
import { validateLongUrl } from '@shortlane/shared/validation/url.ts';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import type { UpdateLinkArgs } from '../../../data/link-update-mutation.ts';

/**
 * The edit modal's rules: what the form starts with, what it refuses before asking the server,
 * and the update_link call for what changed (a part left alone is not sent, so a plan rule on
 * it — paid_only for the destination, use_tags — is not asked about).
 */

export interface LinkEditValues {
  alias: string;
  url: string;
  tags: string[];
  /** Local wall-clock time, YYYY-MM-DDTHH:mm (a datetime-local input), or '' for none. */
  expiresAt: string;
  description: string;
}

export const ALIAS_REQUIRED = 'The alias field is required.';
export const EXPIRY_INVALID = 'The expiry is not a valid date.';

/** The user's offset from UTC in minutes, east positive (+60 for CET). */
export function browserUtcOffsetMinutes(at: Date = new Date()): number {
  return -at.getTimezoneOffset();
}

/** An instant as YYYY-MM-DDTHH:mm in the user's local time. */
export function toLocalInput(iso: string, utcOffsetMinutes: number): string {
  return new Date(Date.parse(iso) + utcOffsetMinutes * MINUTE_MS).toISOString().slice(0, 16);
}

/** A YYYY-MM-DDTHH:mm local wall-clock time as an instant, or null if it is not one. */
export function fromLocalInput(value: string, utcOffsetMinutes: number): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const asUtc = Date.parse(`${value}:00Z`);
  if (Number.isNaN(asUtc)) return null;
  const instant = new Date(asUtc - utcOffsetMinutes * MINUTE_MS);
  // Date.parse rolls 30 February over to March: only a real wall-clock time comes back equal.
  return toLocalInput(instant.toISOString(), utcOffsetMinutes) === value ? instant : null;
}

export function initialEditValues(link: LinkListItem, utcOffsetMinutes: number): LinkEditValues {
  return {
    alias: link.alias,
    url: link.longUrl,
    tags: [...link.tags],
    expiresAt: link.expiresAt ? toLocalInput(link.expiresAt, utcOffsetMinutes) : '',
    description: link.description ?? '',
  };
}

export interface EditClock {
  now: Date;
  utcOffsetMinutes: number;
}

/** The first error per field ('tags.N' per tag), as the form shows them; empty when valid. */
export function validateLinkEdit(
  values: LinkEditValues,
  link: LinkListItem,
  clock: EditClock,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const alias = values.alias.trim();
  const aliasError = alias === '' ? ALIAS_REQUIRED : validateAlias(alias);
  if (aliasError) errors.alias = aliasError;
  const urlError = validateLongUrl(values.url);
  if (urlError) errors.url = urlError;
  Object.assign(errors, validateTags(values.tags).errors);
  const initialExpiry = link.expiresAt ? toLocalInput(link.expiresAt, clock.utcOffsetMinutes) : '';
  // An unchanged expiry is not checked again: a link may keep one that is now close or past.
  if (values.expiresAt !== '' && values.expiresAt !== initialExpiry) {
    const expiresAt = fromLocalInput(values.expiresAt, clock.utcOffsetMinutes);
    const code = expiresAt ? expiryError(expiresAt, clock) : null;
    if (!expiresAt) errors.expires_at = EXPIRY_INVALID;
    else if (code) errors.expires_at = ERROR_CODES[code].message;
  }
  return errors;
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((tag, index) => tag === right[index]);
}

/** The update_link arguments for what changed; null when nothing did. */
export function linkEditArgs(
  values: LinkEditValues,
  link: LinkListItem,
  utcOffsetMinutes: number,
): UpdateLinkArgs | null {
  const args: UpdateLinkArgs = { p_alias_id: link.id };
  const alias = values.alias.trim();
  if (alias !== link.alias) args.p_alias = alias;
  const url = values.url.trim();
  if (url !== link.longUrl) args.p_url = url;
  const tags = validateTags(values.tags).tags;
  if (!sameTags(tags, link.tags)) args.p_tags = tags;
  const initialExpiry = link.expiresAt ? toLocalInput(link.expiresAt, utcOffsetMinutes) : '';
  if (values.expiresAt !== initialExpiry) {
    const expiresAt = fromLocalInput(values.expiresAt, utcOffsetMinutes);
    if (values.expiresAt === '') args.p_remove_expiry = true;
    else if (expiresAt) args.p_expires_at = expiresAt.toISOString();
  }
  // Only links made in an organization carry a description (an empty one removes it).
  if (link.organizationId != null && values.description.trim() !== (link.description ?? '')) {
    args.p_description = values.description.trim();
  }
  return Object.keys(args).length > 1 ? args : null;
}
