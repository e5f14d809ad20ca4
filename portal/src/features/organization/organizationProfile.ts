/**
 * The organization profile's words: the checks a name and slug pass before they are sent (the
 * same as the database's, so the person hears at once), and what the database's refusals —
 * a coded RPC error (create_organization, archive_organization) or a constraint of a direct
 * update — mean to a person. Messages are the RPC catalogue's (`app.raise_coded`).
 */
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '@shortlane/shared/slug.ts';
import { ApiError } from '../../data/unwrap.ts';

export const NAME_REQUIRED = 'The name field is required.';
export const SLUG_INVALID = 'The slug may only contain lower-case letters, numbers and dashes.';
export const SLUG_TAKEN = 'The slug has already been taken.';
export const NAME_TOO_LONG = 'The name may not be greater than 255 characters.';
export const SLUG_TOO_LONG = 'The slug may not be greater than 64 characters.';
export const RESTORED = 'The organization has been restored.';

export type ProfileField = 'name' | 'slug' | 'form';
export type ProfileErrors = Partial<Record<ProfileField, string>>;

export function validateProfileDraft(draft: { name: string; slug: string }): ProfileErrors {
  const errors: ProfileErrors = {};
  const name = draft.name.trim();
  const slug = draft.slug.trim();
  if (name === '') errors.name = NAME_REQUIRED;
  else if (name.length > 255) errors.name = NAME_TOO_LONG;
  if (slug.length > SLUG_MAX_LENGTH) errors.slug = SLUG_TOO_LONG;
  else if (!SLUG_PATTERN.test(slug)) errors.slug = SLUG_INVALID;
  return errors;
}

/** A slug suggested from a name: the team forms' rule (lower-case words joined by dashes). */
export { slugFromName } from '@shortlane/shared/slug.ts';

const CODED: Record<string, { field: ProfileField; message: string }> = {
  name_required: { field: 'name', message: NAME_REQUIRED },
  slug_invalid: { field: 'slug', message: SLUG_INVALID },
  slug_taken: { field: 'slug', message: SLUG_TAKEN },
  organization_not_found: { field: 'form', message: 'Organization not found.' },
  permission_denied: { field: 'form', message: 'Permission denied' },
};

/** A refused write as the form shows it. */
export function profileErrors(error: unknown): ProfileErrors {
  const body =
    error instanceof ApiError
      ? (error.body as { code?: string; message?: string; details?: string } | null)
      : null;
  const coded = body?.message != null ? CODED[body.message] : undefined;
  if (coded) return { [coded.field]: coded.message };
  // A direct update: the unique slug, or the slug domain's check (names are checked above).
  if (body?.code === '23505') return { slug: SLUG_TAKEN };
  if (body?.code === '23514') return { slug: SLUG_INVALID };
  // No row came back: the policy hid the update (no `profile` permission any more).
  if (
    body?.code === 'PGRST116' ||
    body?.code === '42501' ||
    (error instanceof ApiError && error.status === 403)
  ) {
    return { form: 'You are not allowed to change this organization.' };
  }
  return { form: 'The organization could not be saved. Try again.' };
}
