import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, asActor, createUser, useDatabase, withRollback } from '../support/index.ts';
import { createDomain } from './fixtures.ts';

/**
 * search_links finds a page by whichever path is cheapest for the word (a walk through the newest
 * links in one or two legs, or the trigram indexes; migration 20261122003110): whatever the path,
 * the answer is the newest matches, in order, as a plain scan of every link would give.
 */
const pool = useDatabase();

const LINKS = 900;

/**
 * LINKS links, link g created g minutes ago. Destinations carry words by position: "common" in
 * every 3rd link, "middling" in every 20th, "rare" in two old ones (one deleted), "burst" in the
 * newest 3 and then only past the 600th, "50%_off" in two old ones and look-alikes ("50xyoff",
 * "50%yoff") in others; every 7th link is deleted. Aliases are "l<g>", with "x-rare-<g>" for one
 * more rare match by alias, and "rare-both" for a link whose alias and destination both match.
 */
async function linksOf(db: pg.ClientBase, accountId: string, userId: string, domainId: string) {
  await db.query(
    `with urls as (
       insert into public.long_urls (account_id, url)
       select $1, 'https://example.com/' || g
         || case when g % 3 = 0 then '/common' else '' end
         || case when g % 20 = 0 then '/middling' else '' end
         || case when g in (700, 850) then '/rare' else '' end
         || case when g <= 3 or g > 600 then '/burst' else '' end
         || case when g in (640, 880) then '/50%_off' when g % 11 = 0 then '/50xyoff'
              when g % 13 = 0 then '/50%yoff' else '' end
       from generate_series(1, $4::integer) as g
       returning id, url
     )
     insert into public.aliases (long_url_id, account_id, domain_id, alias, status, created_by,
       created_at)
     select u.id, $1, $3,
       case when n.g = 820 then 'x-rare-' || n.g when n.g = 850 then 'rare-both'
         else 'l' || n.g end,
       case when n.g % 7 = 0 then 'deleted' else 'active' end, $2,
       now() - make_interval(mins => n.g)
     from urls u
     cross join lateral (select substring(u.url from 'example\\.com/([0-9]+)')::integer as g) n`,
    [accountId, userId, domainId, LINKS],
  );
}

describe('search_links', () => {
  it('answers the newest matches in order, for frequent, middling, rare and uneven words', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      await linksOf(db, account, user.id, domain.id);
      const reference = (query: string, limit: number) =>
        all<{ id: string }>(
          db,
          `select a.id from public.aliases a join public.long_urls u on u.id = a.long_url_id
           where a.account_id = $1 and a.status <> 'deleted'
             and (a.alias::text ilike $2 or u.url ilike $2)
           order by a.created_at desc, a.id desc limit $3`,
          [account, `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
        ).then((rows) => rows.map((row) => row.id));
      const search = (query: string, limit: number) =>
        asActor(db, user.id, (as) =>
          all<{ id: string }>(as, `select id from public.search_links($1, $2, $3)`, [
            account,
            query,
            limit,
          ]).then((rows) => rows.map((row) => row.id)),
        );
      const cases: [string, number, number][] = [
        // word, page size, how many the page holds
        ['common', 50, 50], // found within the first leg
        ['middling', 50, 39], // the first leg finds some, the second the rest (and the end)
        ['MIDDLING', 15, 15], // a full page in the second leg, case-insensitively
        ['rare', 50, 2], // too few in the first leg: the trigram indexes (alias and URL; the
        // link matching by both comes once)
        ['burst', 4, 4], // 3 in the first leg, the second runs out: the trigram indexes
        ['burst', 50, 50],
        ['nowhere', 50, 0],
        ['50%_off', 50, 2], // % and _ match themselves on the trigram path too
        ['50%', 10, 10], // ...and on the walk
      ];
      for (const [query, limit, count] of cases) {
        const expected = await reference(query, limit);
        expect(expected, `${query} / ${limit}`).toHaveLength(count);
        expect(await search(query, limit), `${query} / ${limit}`).toEqual(expected);
      }
    }));
});
