/**
 * The created-link answer of link-creation 3 and 7: an array of items, each with `url` and its
 * `aliases` (domain, alias, tiny_url, is_main, tags, affiliates). The RPC's answer carries more
 * (ids, status, account) for other callers; the create routes answer exactly the spec's fields.
 * tiny_url is built here, where short domains are served (SHORT_URL_BASE), not taken from the
 * RPC: the database cannot know the local stack's gateway port.
 */
import type { CreatedItem } from '../../../shared/src/created-link.ts';
import { shortUrl, type ShortUrlBase } from '../_shared/short-url.ts';
import type { RpcCreatedItem } from './create.ts';

export type { CreatedAlias, CreatedItem } from '../../../shared/src/created-link.ts';

export function createdItems(
  items: readonly RpcCreatedItem[],
  shortUrlBase: ShortUrlBase,
): CreatedItem[] {
  return items.map(({ url, aliases }) => ({
    url,
    aliases: aliases.map(({ domain, alias, is_main, tags, affiliates }) => ({
      domain,
      alias,
      tiny_url: shortUrl({ domain, alias }, shortUrlBase),
      is_main,
      tags,
      affiliates,
    })),
  }));
}
