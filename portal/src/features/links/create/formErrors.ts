import { messageText } from './messageKeys.ts';

/** The form's own field names for what the `links` function calls its fields. */
const FIELD_OF: Readonly<Record<string, string>> = {
  url: 'url',
  domain: 'domain',
  alias: 'alias',
  description: 'description',
  team: 'team',
  tags: 'tags',
  expires_at: 'expiresAt',
};
const TAG_INDEX = /^tags\.\d+$/;

export interface SortedCreateErrors {
  /** Per form field (tags.N kept as is); first message per field, keys already in words. */
  fields: Record<string, string>;
  /** The bot check's message (anti_robot_token). */
  botCheck: string | null;
  /** The CCPA box must be ticked (ccpa_accepted). */
  ccpa: string | null;
  /** Everything that belongs to no field. */
  form: string | null;
}

/**
 * Sorts the first message per field of a refusal (link-creation 8: errors under url, domain,
 * alias, description, tags, expires_at and a general 'form' error) onto the form.
 */
export function sortCreateErrors(errors: Readonly<Record<string, string>>): SortedCreateErrors {
  const sorted: SortedCreateErrors = { fields: {}, botCheck: null, ccpa: null, form: null };
  for (const [field, raw] of Object.entries(errors)) {
    const message = messageText(raw);
    if (field === 'anti_robot_token') sorted.botCheck = message;
    else if (field === 'ccpa_accepted') sorted.ccpa = message;
    else if (TAG_INDEX.test(field)) sorted.fields[field] = message;
    else if (FIELD_OF[field]) sorted.fields[FIELD_OF[field]] = message;
    else sorted.form ??= message;
  }
  return sorted;
}
