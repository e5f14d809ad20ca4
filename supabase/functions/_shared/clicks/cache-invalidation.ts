/**
 * Feeds a LinkCache from Postgres: LISTEN on the channel the links trigger notifies (see the
 * contract in cache.ts). postgres.js keeps one dedicated connection for it and listens again
 * after a reconnect; anything said while disconnected is lost, so a reconnect drops the whole
 * cache, as does a payload this code cannot read.
 */
import type { Sql } from '../sql.ts';
import type { LinkCache, LinkChange } from './cache.ts';

export const LINK_CACHE_CHANNEL = 'link_cache';

function readChange(payload: string): LinkChange | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return null;
    const { epoch, key } = value as Record<string, unknown>;
    if (typeof epoch !== 'number' && typeof epoch !== 'string') return null;
    if (!/^\d+$/.test(String(epoch))) return null;
    if (key !== undefined && key !== null && typeof key !== 'string') return null;
    return typeof key === 'string' ? { epoch, key } : { epoch };
  } catch {
    return null;
  }
}

export async function invalidateOnNotify(
  sql: Sql,
  cache: Pick<LinkCache<unknown>, 'applyChange' | 'clear'>,
  channel = LINK_CACHE_CHANNEL,
): Promise<{ unlisten(): Promise<void> }> {
  let listening = false;
  const { unlisten } = await sql.listen(
    channel,
    (payload) => {
      const change = readChange(payload);
      if (change) cache.applyChange(change);
      else cache.clear();
    },
    () => {
      // Called on the first LISTEN and after each reconnect: notifications may have been missed.
      if (listening) cache.clear();
      listening = true;
    },
  );
  return { unlisten };
}
