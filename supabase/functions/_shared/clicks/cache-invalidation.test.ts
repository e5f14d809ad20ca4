/**
 * The invalidation contract of cache.ts on real Postgres: a scratch table standing in for the
 * aliases, the epoch row and the trigger that bumps it and notifies, LISTEN through postgres.js.
 * Needs a running stack (`npm test` provides one).
 */
import assert from 'node:assert/strict';
import { closeSql, sql } from '../sql.ts';
import { useStackAsRuntimeEnv } from '../testing.ts';
import { LinkCache, linkCacheKey } from './cache.ts';
import { invalidateOnNotify } from './cache-invalidation.ts';

useStackAsRuntimeEnv();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the cache until it answers `url`, returning how long that took. */
async function timeUntil(read: () => Promise<string | null>, url: string, limitMs = 3_000) {
  const started = performance.now();
  while ((await read()) !== url) {
    if (performance.now() - started > limitMs) throw new Error(`still not ${url}`);
    await sleep(10);
  }
  return performance.now() - started;
}

Deno.test(
  'a destination changed in Postgres reaches the cache by NOTIFY, or by the epoch within a second',
  async () => {
    const suffix = crypto.randomUUID().replaceAll('-', '').slice(0, 12);
    const schema = `link_cache_test_${suffix}`;
    const channel = `link_cache_${suffix}`;
    const db = sql();
    try {
      await db.unsafe(`
      create schema ${schema};
      create table ${schema}.aliases (domain text, alias text, url text, primary key (domain, alias));
      create table ${schema}.link_cache_epoch (epoch bigint not null);
      insert into ${schema}.link_cache_epoch values (1);
      create function ${schema}.link_changed() returns trigger language plpgsql as $$
      declare
        new_epoch bigint;
        changed record := coalesce(new, old);
      begin
        update ${schema}.link_cache_epoch set epoch = epoch + 1 returning epoch into new_epoch;
        perform pg_notify('${channel}', json_build_object(
          'epoch', new_epoch, 'key', lower(changed.domain) || '/' || changed.alias)::text);
        return null;
      end $$;
      create trigger link_changed after insert or update or delete on ${schema}.aliases
        for each row execute function ${schema}.link_changed();
      insert into ${schema}.aliases values ('tiny.test', 'abc', 'https://one.example/');
    `);
      const cache = new LinkCache<string>({
        readEpoch: async () =>
          (await db.unsafe(`select epoch from ${schema}.link_cache_epoch`))[0]?.epoch,
      });
      const key = linkCacheKey('tiny.test', 'abc');
      let loads = 0;
      const lookup = () =>
        cache.get(key, async () => {
          loads++;
          const [row] = await db.unsafe(
            `select url from ${schema}.aliases where domain = $1 and alias = $2`,
            ['tiny.test', 'abc'],
          );
          return (row?.url as string | undefined) ?? null;
        });
      const listener = await invalidateOnNotify(db, cache, channel);

      assert.equal(await lookup(), 'https://one.example/');
      assert.equal(await lookup(), 'https://one.example/');
      assert.equal(loads, 1);

      // With the listener: the key is dropped as soon as the change commits.
      await db.unsafe(`update ${schema}.aliases set url = 'https://two.example/'`);
      const notified = await timeUntil(lookup, 'https://two.example/');
      assert.ok(notified < 500, `seen after ${notified.toFixed(0)} ms`);
      assert.equal(cache.stats().resets, 0, 'only that key was dropped');

      // Without it (notifications lost): the epoch check still catches the change within 1 s.
      await listener.unlisten();
      await db.unsafe(`update ${schema}.aliases set url = 'https://three.example/'`);
      const polled = await timeUntil(lookup, 'https://three.example/');
      // One epoch interval (1 s) plus the query and timer latency of a busy machine; the exact
      // bound is proven with a controlled clock in cache.test.ts. The TTL (60 s) played no part.
      assert.ok(polled < 2_000, `seen after ${polled.toFixed(0)} ms`);
      assert.equal(cache.stats().resets, 1);

      // A deleted link is gone as well.
      await db.unsafe(`delete from ${schema}.aliases`);
      await sleep(1_050);
      assert.equal(await lookup(), null);
    } finally {
      await db.unsafe(`drop schema if exists ${schema} cascade`);
      await closeSql();
    }
  },
);
