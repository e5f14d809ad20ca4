/**
 * Domain + alias → what a redirect needs, through the LRU/TTL link cache (invalidated by the
 * database's NOTIFY and epoch, see _shared/clicks/cache.ts). Cache misses are looked up in
 * batches: while a lookup is running, the misses that arrive queue up and go together in the
 * next one (app.resolve_short_links takes arrays), so a burst of distinct aliases costs a few
 * round trips, not one each, and a quiet instance still answers a lone miss at once.
 */
import { LinkCache, linkCacheKey } from '../_shared/clicks/cache.ts';
import type { Sql } from '../_shared/sql.ts';
import { type LinkPixel, parseLinkPixel } from '../../../shared/src/pixels.ts';
import type { RedirectRoute } from '../../../shared/src/routing.ts';

export interface DomainFacts {
  /** Not disabled, deleted or blocked, and verified. */
  usable: boolean;
  redirectStatus: 301 | 302;
  rootRedirectUrl: string | null;
  notFoundRedirectUrl: string | null;
}

/** Why a link does not redirect, or 'active'. Expiry is judged per request (see handler). */
export type LinkState =
  'active' | 'deleted' | 'terminated' | 'banned' | 'archived' | 'inactive' | 'invalid';

export interface LinkFacts {
  aliasId: string;
  accountId: string | null;
  state: LinkState;
  /** Milliseconds since the epoch, or null for no expiry. */
  expiresAt: number | null;
  destination: string;
  /** The link's redirect routes in order (cached with it, dropped with it); usually none. */
  routes: readonly RedirectRoute[];
  /** The link's clicks when it was loaded, for rules on the number of clicks; else null. */
  clicks: number | null;
  /** The retargeting pixels a visit fires (cached with the link, dropped with it); usually none. */
  pixels: readonly LinkPixel[];
}

export interface Resolved {
  domain: DomainFacts;
  /** Null: no such alias on the domain (or a root request). */
  link: LinkFacts | null;
}

/** A row of app.resolve_short_links. */
export interface ResolvedRow {
  domain: string;
  alias: string;
  domain_usable: boolean;
  redirect_status: number;
  root_redirect_url: string | null;
  not_found_redirect_url: string | null;
  alias_id: string | null;
  account_id: string | null;
  alias_status: string | null;
  expires_at: Date | string | null;
  url: string | null;
  url_status: string | null;
  /** Banned, or refused by the destination rule (app.judge_destination): never redirected to. */
  destination_banned: boolean;
  /** The link's routes (app.link_routes), or null when it has none. */
  routes: RedirectRoute[] | null;
  /** Only for links with a rule on the number of clicks (bigint: text from the driver). */
  clicks: string | number | null;
  /** The link's pixels (app.link_pixels: [{provider, id}]), or null when it has none. */
  pixels?: unknown[] | null;
}

const NO_PIXELS: readonly LinkPixel[] = Object.freeze([]);

/** Pixels as stored, checked again: only an id of the provider's format may reach a page. */
function pixelsOf(rows: unknown[] | null | undefined): readonly LinkPixel[] {
  if (!rows || rows.length === 0) return NO_PIXELS;
  return rows.flatMap((row) => parseLinkPixel(row) ?? []);
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function linkState(row: ResolvedRow): LinkState {
  if (row.alias_status === 'deleted') return 'deleted';
  if (row.alias_status === 'terminated' || row.url_status === 'terminated') return 'terminated';
  if (row.destination_banned) return 'banned';
  if (row.alias_status === 'archived') return 'archived';
  if (row.url_status === 'inactive') return 'inactive';
  // Never send a visitor to something that is not a web address, whatever got stored.
  if (!row.url || !isHttpUrl(row.url)) return 'invalid';
  return 'active';
}

export function resolvedFromRow(row: ResolvedRow): Resolved {
  const domain: DomainFacts = {
    usable: row.domain_usable,
    redirectStatus: row.redirect_status === 301 ? 301 : 302,
    rootRedirectUrl: row.root_redirect_url,
    notFoundRedirectUrl: row.not_found_redirect_url,
  };
  if (row.alias_id === null) return { domain, link: null };
  return {
    domain,
    link: {
      aliasId: row.alias_id,
      accountId: row.account_id,
      state: linkState(row),
      expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
      destination: row.url ?? '',
      // Never send a visitor to something that is not a web address, whatever got stored.
      routes: (row.routes ?? []).filter((route) => isHttpUrl(route.url)),
      clicks: row.clicks === null || row.clicks === undefined ? null : Number(row.clicks),
      pixels: pixelsOf(row.pixels),
    },
  };
}

export interface LinkKey {
  /** Lower case, no trailing dot. */
  domain: string;
  /** Lower case (aliases compare without case); empty for the domain alone. */
  alias: string;
}

export interface BatchOptions {
  /** Most keys per lookup (default 256). */
  maxBatch?: number;
  /**
   * Lookups running at once (default 1: a lookup's fixed cost dominates, so under load fewer,
   * larger batches serve more misses per second, and with lower tail latency, than several
   * small ones at once).
   */
  maxConcurrent?: number;
}

interface Waiting<V> {
  key: LinkKey;
  resolve: (value: V | null) => void;
  reject: (error: unknown) => void;
}

/** Coalesces single-key loads into batched lookups, at most `maxConcurrent` at a time. */
export class BatchLoader<V> {
  readonly #lookup: (keys: LinkKey[]) => Promise<Map<string, V>>;
  readonly #maxBatch: number;
  readonly #maxConcurrent: number;
  #queue: Waiting<V>[] = [];
  #running = 0;

  constructor(lookup: (keys: LinkKey[]) => Promise<Map<string, V>>, options: BatchOptions = {}) {
    this.#lookup = lookup;
    this.#maxBatch = options.maxBatch ?? 256;
    this.#maxConcurrent = options.maxConcurrent ?? 1;
  }

  load(key: LinkKey): Promise<V | null> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ key, resolve, reject });
      this.#pump();
    });
  }

  #pump() {
    while (this.#running < this.#maxConcurrent && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      this.#running++;
      this.#lookup(batch.map((waiting) => waiting.key))
        .then(
          (found) => {
            for (const waiting of batch)
              waiting.resolve(
                found.get(linkCacheKey(waiting.key.domain, waiting.key.alias)) ?? null,
              );
          },
          (error: unknown) => {
            for (const waiting of batch) waiting.reject(error);
          },
        )
        .finally(() => {
          this.#running--;
          this.#pump();
        });
    }
  }
}

/** One round trip for many keys: app.resolve_short_links over two arrays. */
export function lookupLinks(sql: Sql) {
  return async (keys: LinkKey[]): Promise<Map<string, Resolved>> => {
    const rows = await sql<ResolvedRow[]>`
      select * from app.resolve_short_links(
        ${keys.map((key) => key.domain)}::text[], ${keys.map((key) => key.alias)}::text[])`;
    return new Map(rows.map((row) => [linkCacheKey(row.domain, row.alias), resolvedFromRow(row)]));
  };
}

/** The host a request was made to: lower case, without port or trailing dot. */
export function requestHost(request: Request): string {
  const header = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? '';
  const host = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return host.replace(/:\d+$/, '').replace(/\.$/, '');
}

export class LinkResolver {
  readonly #cache: LinkCache<Resolved>;
  readonly #loader: BatchLoader<Resolved>;

  constructor(
    cache: LinkCache<Resolved>,
    lookup: (keys: LinkKey[]) => Promise<Map<string, Resolved>>,
    options?: BatchOptions,
  ) {
    this.#cache = cache;
    this.#loader = new BatchLoader(lookup, options);
  }

  /**
   * Null when the host is not one of our domains. Answered at once (no promise) when the cache
   * holds the link, as it does for nearly every visit.
   */
  resolve(domain: string, alias: string): Resolved | null | Promise<Resolved | null> {
    const key: LinkKey = { domain: domain.toLowerCase(), alias: alias.toLowerCase() };
    const cacheKey = linkCacheKey(key.domain, key.alias);
    const cached = this.#cache.cached(cacheKey);
    if (cached !== undefined) return cached;
    return this.#cache.get(cacheKey, () => this.#loader.load(key));
  }
}
