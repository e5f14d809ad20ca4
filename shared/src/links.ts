/** What the create form sends, by workspace (link-creation 5 and 6). */
import type { FeatureContext } from './features.ts';
import { can } from './features.ts';
import type { LinkCreate } from './schemas/link.ts';

/**
 * Description is for organization mode only; in organization mode tags are sent only if the
 * team (or, for the personal workspace, the organization) may manage tags.
 */
export function linkCreatePayload(form: LinkCreate, context: FeatureContext): LinkCreate {
  if (context.kind !== 'organization') return { ...form, description: null };
  return can(context, 'use_tags') ? form : { ...form, tags: [] };
}
