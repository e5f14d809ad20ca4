import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  type BulkChunkAnswer,
  type BulkChunkRow,
  createUser,
  one,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, createLink, givePlan, LINK_FEATURES } from './fixtures.ts';

/**
 * app.bulk_create_links's main aliases (migration 20261122007000): the first alias a destination
 * gets is its main one, whether the destination is new in the chunk, repeated in it, already the
 * account's, or its first row's alias is drawn again in a later round.
 */
const pool = useDatabase();

async function createScene(db: pg.ClientBase) {
  const user = await createUser(db);
  await givePlan(db, user.personalAccountId, { features: [...LINK_FEATURES, 'create_tiny_url'] });
  const domain = await createDomain(db);
  return { user, domain };
}

async function runChunk(
  db: pg.ClientBase,
  scene: Awaited<ReturnType<typeof createScene>>,
  rows: BulkChunkRow[],
) {
  const job = await one<{ id: string }>(
    db,
    `insert into public.bulk_jobs (account_id, created_by, domain_id, file_path, file_name,
       file_type, total)
     values ($1, $2::uuid, $3, $2::text || '/' || gen_random_uuid() || '.csv', 'list.csv', 'csv',
       $4)
     returning id`,
    [scene.user.personalAccountId, scene.user.id, scene.domain.id, rows.length],
  );
  const { result } = await asActor(db, scene.user.id, (as) =>
    one<{ result: BulkChunkAnswer }>(as, `select app.bulk_create_links($1, $2::jsonb) as result`, [
      job.id,
      JSON.stringify(rows),
    ]),
  );
  return result;
}

/** Every alias of the account: its destination and whether it is the destination's main one. */
const aliasesOf = (db: pg.ClientBase, accountId: string) =>
  all<{ alias: string; url: string; is_main: boolean }>(
    db,
    `select a.alias::text as alias, l.url, a.is_main
     from public.aliases a join public.long_urls l on l.id = a.long_url_id
     where a.account_id = $1 order by a.alias`,
    [accountId],
  );

describe('bulk_create_links: main aliases', () => {
  it('a new destination repeated in the chunk gets one main alias, its first row’s; one the account had keeps its own', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const known = 'https://example.com/known';
      const fresh = 'https://example.com/fresh';
      await createLink(db, {
        accountId: scene.user.personalAccountId,
        createdBy: scene.user.id,
        domainId: scene.domain.id,
        alias: 'kept-main',
        url: known,
      });
      const result = await runChunk(db, scene, [
        { row: 2, url: known, alias: 'known-2', tags: [] },
        { row: 3, url: fresh, alias: 'fresh-3', tags: [] },
        { row: 4, url: fresh, random_alias: 'Drawn04x', tags: [] },
        { row: 5, url: known, random_alias: 'Drawn05x', tags: [] },
        { row: 6, url: fresh, alias: 'fresh-6', tags: [] },
      ]);
      expect(result.errors).toEqual([]);
      expect(await aliasesOf(db, scene.user.personalAccountId)).toEqual([
        { alias: 'Drawn04x', url: fresh, is_main: false },
        { alias: 'Drawn05x', url: known, is_main: false },
        { alias: 'fresh-3', url: fresh, is_main: true },
        { alias: 'fresh-6', url: fresh, is_main: false },
        { alias: 'kept-main', url: known, is_main: true },
        { alias: 'known-2', url: known, is_main: false },
      ]);
    }));

  it('a row whose draw was taken or reserved is drawn again, main only if its destination has none', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      const other = await createScene(db);
      // Another account's link on the same domain holds the first row's draw.
      await createLink(db, {
        accountId: other.user.personalAccountId,
        createdBy: other.user.id,
        domainId: scene.domain.id,
        alias: 'TakenAb1',
        url: 'https://example.com/other',
      });
      const first = 'https://example.com/first';
      const second = 'https://example.com/second';
      const third = 'https://example.com/third';
      const result = await runChunk(db, scene, [
        { row: 2, url: first, random_alias: 'takenab1', tags: [] },
        { row: 3, url: first, random_alias: 'Second03', tags: [] },
        // A reserved word (in another case) is never a link's alias.
        { row: 4, url: second, random_alias: 'STORAGE', tags: [] },
        // Drawn again after its destination got its main alias (row 5) in the first round.
        { row: 5, url: third, random_alias: 'Third005', tags: [] },
        { row: 6, url: third, random_alias: 'TAKENAB1', tags: [] },
      ]);
      expect(result.errors).toEqual([]);
      expect(result.created.map(([row]) => row)).toEqual([2, 3, 4, 5, 6]);
      const created = new Map(result.created);
      expect(created.get(2)?.toLowerCase()).not.toBe('takenab1');
      expect(created.get(4)?.toLowerCase()).not.toBe('storage');
      expect(created.get(6)?.toLowerCase()).not.toBe('takenab1');
      const aliases = await aliasesOf(db, scene.user.personalAccountId);
      expect(aliases.map(({ alias, url, is_main }) => [alias, url, is_main]).sort()).toEqual(
        [
          [created.get(2), first, true],
          ['Second03', first, false],
          [created.get(4), second, true],
          ['Third005', third, true],
          [created.get(6), third, false],
        ].sort(),
      );
    }));

  it('refuses a chunk that numbers a row twice, and writes nothing of it', () =>
    withRollback(pool, async (db) => {
      const scene = await createScene(db);
      await expect(
        runChunk(db, scene, [
          { row: 2, url: 'https://example.com/twice-a', tags: [] },
          { row: 2, url: 'https://example.com/twice-b', tags: [] },
        ]),
      ).rejects.toThrow(/row numbers must be distinct/);
      expect(await aliasesOf(db, scene.user.personalAccountId)).toEqual([]);
    }));
});
