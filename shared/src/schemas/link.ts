/** The create form (single and bulk), link-creation sections 3 and 5. */
import { z } from 'zod';
import { ERROR_CODES, errorMessage } from '../errors.ts';
import { validateAlias } from '../validation/alias.ts';
import type { ExpiryClock } from '../validation/expiry.ts';
import { expiryError, parseExpiry, toUtcIso } from '../validation/expiry.ts';
import { BULK_FILE_ERRORS, validateBulkFile } from '../validation/files.ts';
import { validateTags } from '../validation/tags.ts';
import { validateLongUrl } from '../validation/url.ts';
import { requiredFileMeta } from './files.ts';
import { checkWith, formBoolean, optionalText, requiredText } from './rules.ts';

/** Not in the spec; worded like its other required-field messages. */
export const DOMAIN_REQUIRED = 'The domain field is required.';
export const EXPIRY_INVALID = 'The expiry is not a valid date.';

const urlField = requiredText(ERROR_CODES.url_required.message).superRefine(
  checkWith(validateLongUrl),
);
const domainField = requiredText(DOMAIN_REQUIRED);
/** A team slug, or null for the personal workspace. */
const teamField = optionalText();

/** Tags are normalized, empty ones dropped; errors land on tags.N of the list sent. */
const tagsField = z
  .array(z.string())
  .nullish()
  .transform((raw, ctx) => {
    const { tags, errors } = validateTags(raw ?? []);
    for (const [key, message] of Object.entries(errors)) {
      ctx.addIssue({ code: 'custom', message, path: [Number(key.slice('tags.'.length))] });
    }
    return tags;
  });

function expiresAtField(clock: ExpiryClock) {
  return optionalText().transform((value, ctx) => {
    if (value == null) return null;
    const expiresAt = parseExpiry(value);
    if (expiresAt == null) {
      ctx.addIssue({ code: 'custom', message: EXPIRY_INVALID });
      return z.NEVER;
    }
    const refusal = expiryError(expiresAt, clock);
    if (refusal != null) {
      ctx.addIssue({ code: 'custom', message: errorMessage(refusal) });
      return z.NEVER;
    }
    return toUtcIso(expiresAt);
  });
}

/**
 * Single create: url, domain, alias, description, team, tags, anti_robot_token, expires_at
 * (sent as a UTC ISO timestamp or null). The expiry window depends on the clock, which the
 * caller passes.
 */
export function linkCreateSchema(clock: ExpiryClock) {
  return z.object({
    url: urlField,
    domain: domainField,
    alias: optionalText().superRefine(checkWith(validateAlias)),
    description: optionalText(),
    team: teamField,
    tags: tagsField,
    anti_robot_token: optionalText(),
    expires_at: expiresAtField(clock),
  });
}
export type LinkCreateInput = z.input<ReturnType<typeof linkCreateSchema>>;
export type LinkCreate = z.output<ReturnType<typeof linkCreateSchema>>;

/** Bulk create: file (csv, xls, xlsx, ods; at most 10MB), domain, team, withHeader (default true). */
export const bulkFormSchema = z.object({
  file: requiredFileMeta(BULK_FILE_ERRORS.required).superRefine(checkWith(validateBulkFile)),
  domain: domainField,
  team: teamField,
  withHeader: formBoolean().default(true),
});
export type BulkFormInput = z.input<typeof bulkFormSchema>;
export type BulkForm = z.output<typeof bulkFormSchema>;
