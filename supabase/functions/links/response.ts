/**
 * The created-link answer of link-creation 3 and 7: an array of items, each with `url` and its
 * `aliases` (domain, alias, tiny_url, is_main, tags, affiliates). The RPC's answer carries more
 * (ids, status, account) for other callers; the create routes answer exactly the spec's fields.
 */
import type { CreatedItem } from '../../../shared/src/created-link.ts';
import type { RpcCreatedItem } from './create.ts';

export type { CreatedAlias, CreatedItem } from '../../../shared/src/created-link.ts';

export function createdItems(items: readonly RpcCreatedItem[]): CreatedItem[] {
  return items.map(({ url, aliases }) => ({
    url,
    aliases: aliases.map(({ domain, alias, tiny_url, is_main, tags, affiliates }) => ({
      domain,
      alias,
      tiny_url,
      is_main,
      tags,
      affiliates,
    })),
  }));
}
