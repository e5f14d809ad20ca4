/**
 * The redirector assembled from its parts over one connection pool (SUPABASE_DB_URL): the link
 * cache fed by LISTEN link_cache, the IP block list fed by LISTEN ip_blocks, the redirect
 * allowance fed by LISTEN account_limits, the click buffer and its writer, and the request
 * handler. index.ts serves it; tests and the benchmark start it with
 * their own options.
 *
 * Environment (all optional except the salt):
 *   CLICK_IP_SALT             keys the IP hashes (see _shared/clicks/ip-hash.ts)
 *   CLICK_FLUSH_INTERVAL_MS   longest a click waits for its batch (default 250)
 *   CLICK_BATCH_SIZE          clicks per write (default 2000)
 *   CLICK_BUFFER_CAPACITY     most clicks held in memory (default 100000; beyond, the oldest go)
 */
import { ClickBuffer, type ClickBufferStats } from '../_shared/clicks/buffer.ts';
import { LinkCache, type LinkCacheStats } from '../_shared/clicks/cache.ts';
import { invalidateOnNotify } from '../_shared/clicks/cache-invalidation.ts';
import { loadCountryDatabase } from '../_shared/clicks/geo.ts';
import { ipHasherFromEnv, type IpHasher } from '../_shared/clicks/ip-hash.ts';
import type { Sql } from '../_shared/sql.ts';
import { checkAccounts, RedirectAllowance, watchAccountLimits } from './allowance.ts';
import { captureClick, clickWriter, readRollupSchedule, type CapturedClick } from './clicks.ts';
import { createRedirectHandler } from './handler.ts';
import { IpBlockList, loadIpBlocks } from './ip-blocks.ts';
import { pixelPageResponse, pixelsWanted } from './pixels.ts';
import { LinkResolver, lookupLinks, requestHost, type Resolved } from './resolve.ts';
import { VisitorReader } from './visitor.ts';

export interface RedirectorOptions {
  sql: Sql;
  hasher?: IpHasher;
  flushIntervalMs?: number;
  batchSize?: number;
  capacity?: number;
  now?: () => number;
}

export interface Redirector {
  handler: (request: Request) => Response | Promise<Response>;
  buffer: ClickBuffer<CapturedClick>;
  stats(): { clicks: ClickBufferStats; cache: LinkCacheStats; ipBlocks: number };
  /** Writes what is buffered and stops listening (the pool stays the caller's). */
  close(): Promise<ClickBufferStats>;
}

function positiveFromEnv(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, not "${raw}"`);
  return value;
}

export function optionsFromEnv(): Omit<RedirectorOptions, 'sql'> {
  return {
    hasher: ipHasherFromEnv(),
    flushIntervalMs: positiveFromEnv('CLICK_FLUSH_INTERVAL_MS', 250),
    batchSize: positiveFromEnv('CLICK_BATCH_SIZE', 2_000),
    capacity: positiveFromEnv('CLICK_BUFFER_CAPACITY', 100_000),
  };
}

export async function startRedirector(options: RedirectorOptions): Promise<Redirector> {
  const { sql, now = Date.now } = options;
  const hasher = options.hasher ?? ipHasherFromEnv();
  const cache = new LinkCache<Resolved>({
    readEpoch: async () => {
      const [row] = await sql<{ epoch: string }[]>`select epoch::text from app.link_cache_epoch`;
      return row?.epoch ?? '0';
    },
    now,
  });
  const resolver = new LinkResolver(cache, lookupLinks(sql));
  const ipBlocks = new IpBlockList(loadIpBlocks(sql));
  const allowance = new RedirectAllowance({ check: checkAccounts(sql), now });
  const batchSize = options.batchSize ?? 2_000;
  const rollups = await readRollupSchedule(sql);
  const buffer = new ClickBuffer<CapturedClick>({
    write: clickWriter({
      sql,
      hasher,
      onAccounts: (states) => allowance.learn(states),
      rollups,
      now,
    }),
    capacity: Math.max(options.capacity ?? 100_000, batchSize),
    batchSize,
    flushIntervalMs: options.flushIntervalMs ?? 250,
  });

  const linkListener = await invalidateOnNotify(sql, cache);
  const blockListener = await sql.listen('ip_blocks', () => void ipBlocks.refresh());
  const limitListener = await watchAccountLimits(sql, allowance);
  await ipBlocks.refresh();
  // Blocks also end by time; a minute's delay is the price of not asking on every request.
  const blockTimer = setInterval(() => void ipBlocks.refresh(), 60_000);
  Deno.unrefTimer(blockTimer);
  // Load the GeoIP data now rather than inside the first batch.
  void loadCountryDatabase();
  // Steps that passed while no instance ran are rolled up now (later, after each step's end).
  sql`select app.advance_click_rollups()`.catch((error: unknown) =>
    console.error('Click rollups: could not advance:', error),
  );

  const visitors = new VisitorReader();
  const handler = createRedirectHandler({
    resolve: (domain, alias) => resolver.resolve(domain, alias),
    host: requestHost,
    isIpBlocked: (headers) => ipBlocks.isBlocked(headers),
    redirectsBlocked: (accountId) => allowance.isBlocked(accountId),
    capture: captureClick,
    visitor: (request, url, routes, at) => visitors.read(request, url, routes, at),
    record: (click) => buffer.push(click),
    now,
    pixelsWanted,
    pixelPage: (pixels, location) => pixelPageResponse(pixels, location),
  });

  return {
    handler,
    buffer,
    stats: () => ({ clicks: buffer.stats(), cache: cache.stats(), ipBlocks: ipBlocks.size }),
    close: async () => {
      clearInterval(blockTimer);
      const stats = await buffer.close();
      await Promise.allSettled([
        linkListener.unlisten(),
        blockListener.unlisten(),
        limitListener.unlisten(),
      ]);
      return stats;
    },
  };
}
