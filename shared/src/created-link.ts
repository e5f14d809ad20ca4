/**
 * The created-link answer of link-creation 3 and 7 (the `links` edge function's success body):
 * an array of items, each with the long `url` and its `aliases`. The portal shows one item as
 * the single result; the function builds it (supabase/functions/links/response.ts).
 */

export interface CreatedAlias {
  domain: string;
  alias: string;
  /** The full short URL, e.g. https://shrt.example/spring (short-url.ts: shortUrl). */
  tiny_url: string;
  is_main: boolean;
  tags: string[];
  affiliates: unknown[];
}

export interface CreatedItem {
  url: string;
  aliases: CreatedAlias[];
}

/** One created link as the result view shows it. */
export type CreatedLink = CreatedItem;

/** The whole success body of a create call. */
export type CreatedLinksResponse = CreatedItem[];
