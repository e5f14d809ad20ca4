import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  all,
  asActor,
  createUser,
  expectDatabaseError,
  useDatabase,
  withRollback,
} from '../support/index.ts';
import { createDomain, createLink } from './fixtures.ts';
import { ACTORS, createLinkScene } from './scene.ts';

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

/**
 * The link lists' parameters (migration 20261122007800): the `type:query` field, the list's
 * state, a keyset cursor and an organization. The reference for each is the list's former
 * PostgREST query (aliases under row-level security, filtered the same way), so the function
 * answers what the portal showed before.
 */
type Field = 'any' | 'alias' | 'url' | 'description' | 'tag';
type State = 'active' | 'expired' | 'archived' | null;

interface ListSearch {
  accountId: string;
  query: string;
  field?: Field;
  state?: State;
  organizationId?: string | null;
}

const LIVE = `a.status in ('active', 'no_affiliate', 'can_affiliate')`;
const STATE_SQL: Record<Exclude<State, null>, string> = {
  active: `${LIVE} and (a.expires_at is null or a.expires_at > now())`,
  expired: `${LIVE} and a.expires_at <= now()`,
  archived: `a.status = 'archived'`,
};
const FIELD_SQL: Record<Field, string> = {
  any: `(a.alias::text ilike q.pattern or u.url ilike q.pattern)`,
  alias: `a.alias::text ilike q.pattern`,
  url: `u.url ilike q.pattern`,
  description: `a.description ilike q.pattern`,
  tag: `exists (select 1 from public.alias_tags x join public.tags t on t.id = x.tag_id
    where x.alias_id = a.id and t.name = q.term)`,
};

/** The former list query as the caller runs it (RLS applies), every page at once. */
function listReference(as: pg.ClientBase, s: ListSearch): Promise<string[]> {
  const state = s.state ? STATE_SQL[s.state] : `a.status <> 'deleted'`;
  return all<{ id: string }>(
    as,
    `select a.id
     from (select $2::text as pattern, $4::text as term) q
     cross join public.aliases a
     join public.long_urls u on u.id = a.long_url_id
     where a.account_id = $1 and ${state} and ${FIELD_SQL[s.field ?? 'any']}
       and ($3::uuid is null or a.organization_id = $3)
     order by a.created_at desc, a.id desc`,
    [
      s.accountId,
      `%${s.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      s.organizationId ?? null,
      s.query,
    ],
  ).then((rows) => rows.map((row) => row.id));
}

/** search_links page after page (the cursor from each page's last row) until one is short. */
async function everyPage(as: pg.ClientBase, s: ListSearch, perPage: number): Promise<string[]> {
  const found: string[] = [];
  // The cursor's time as text: a Date would cut its microseconds (PostgREST sends them all).
  let after: { created_at: string; id: string } | null = null;
  for (;;) {
    const page: { id: string; created_at: string }[] = await all(
      as,
      `select id, created_at::text from public.search_links(p_account_id => $1, p_query => $2,
         p_limit => $3, p_field => $4, p_state => $5, p_after_created_at => $6, p_after_id => $7,
         p_organization_id => $8)`,
      [
        s.accountId,
        s.query,
        perPage + 1,
        s.field ?? 'any',
        s.state ?? null,
        after?.created_at ?? null,
        after?.id ?? null,
        s.organizationId ?? null,
      ],
    );
    const shown = page.slice(0, perPage);
    found.push(...shown.map((row) => row.id));
    if (page.length <= perPage) return found;
    after = shown[shown.length - 1]!;
  }
}

describe('search_links for the link lists', () => {
  it('pages through every match by keyset, without duplicates or gaps, per word and state', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      await linksOf(db, account, user.id, domain.id);
      // States across the words: every 5th link archived, every 9th expired, every 17th not yet.
      await db.query(
        `update public.aliases set
           status = case when substring(alias from '[0-9]+')::integer % 5 = 0
             and status <> 'deleted' then 'archived' else status end,
           expires_at = case
             when substring(alias from '[0-9]+')::integer % 9 = 0 then now() - interval '1 hour'
             when substring(alias from '[0-9]+')::integer % 17 = 0 then now() + interval '1 day'
           end
         where account_id = $1 and alias ~ '^l[0-9]+$'`,
        [account],
      );
      const cases: [string, State, number][] = [
        ['common', 'active', 25],
        ['common', 'expired', 10],
        ['middling', 'active', 7],
        ['middling', 'archived', 3],
        ['rare', 'active', 10],
        ['burst', 'active', 25],
        ['burst', null, 40],
        ['50%_off', 'active', 1],
        ['50%', 'expired', 4],
        ['nowhere', 'active', 10],
      ];
      await asActor(db, user.id, async (as) => {
        for (const [query, state, perPage] of cases) {
          const label = `${query} / ${state} / ${perPage}`;
          const expected = await listReference(as, { accountId: account, query, state });
          const found = await everyPage(as, { accountId: account, query, state }, perPage);
          expect(found, label).toEqual(expected);
          expect(new Set(found).size, label).toBe(found.length);
        }
        // The walk's budget passes most of an account: more than a page of expired common links.
        expect(
          (await listReference(as, { accountId: account, query: 'common', state: 'expired' }))
            .length,
        ).toBeGreaterThan(20);
      });
    }));

  it('searches one field for alias:, url:, description: and tag:, literally', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const other = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      const base = { accountId: account, createdBy: user.id, domainId: domain.id };
      await createLink(db, { ...base, alias: 'spring_sale', url: 'https://a.test/x' });
      await createLink(db, { ...base, alias: 'springXsale', url: 'https://a.test/spring_sale' });
      await createLink(db, { ...base, alias: 'deck-1', url: 'https://a.test/d', tags: ['q4'] });
      await createLink(db, {
        ...base,
        alias: 'deck-2',
        url: 'https://a.test/e',
        tags: ['q4', 'x9'],
      });
      await createLink(db, { ...base, alias: 'deck-3', url: 'https://q4.test/', tags: ['q4x'] });
      await createLink(db, {
        accountId: other.personalAccountId,
        createdBy: other.id,
        domainId: domain.id,
        alias: 'theirs',
        tags: ['q4'],
      });
      await db.query(
        `update public.aliases set description = 'Board deck for 100% of Q4'
         where account_id = $1 and alias in ('deck-1', 'spring_sale')`,
        [account],
      );
      const cases: [Field, string, number][] = [
        ['alias', 'spring_sale', 1], // _ is literal: springXsale does not match
        ['url', 'spring_sale', 1],
        ['any', 'spring_sale', 2],
        ['alias', 'deck', 3],
        ['url', 'deck', 0],
        ['description', '100%', 2],
        ['description', '100_', 0],
        ['tag', 'q4', 2], // the exact tag, not q4x, and only this account's
        ['tag', 'nope', 0],
      ];
      await asActor(db, user.id, async (as) => {
        for (const [field, query, count] of cases) {
          const s = { accountId: account, query, field, state: 'active' as const };
          const expected = await listReference(as, s);
          expect(expected, `${field}:${query}`).toHaveLength(count);
          expect(await everyPage(as, s, 1), `${field}:${query}`).toEqual(expected);
        }
      });
    }));

  it('answers each actor what the list showed them, and narrows to an organization', () =>
    withRollback(pool, async (db) => {
      const { cast, domain, links } = await createLinkScene(db);
      const teamScope: ListSearch = {
        accountId: cast.team.accountId,
        query: 'example.com',
        state: 'active',
      };
      const personal = cast.member.personalAccountId;
      const outside = await createLink(db, {
        accountId: personal,
        createdBy: cast.member.id,
        domainId: domain.id,
      });
      const teamLinks = [links.teamByMember.id, links.teamByAdmin.id].sort();
      const seen: Partial<Record<(typeof ACTORS)[number], string[]>> = {};
      for (const actor of ACTORS) {
        await asActor(db, cast[actor].id, async (as) => {
          const found = await everyPage(as, teamScope, 1);
          // The owner, the team's members (links.read) and staff: as the list showed them.
          if (!['orgUser', 'stranger'].includes(actor)) {
            expect(found, actor).toEqual(await listReference(as, teamScope));
          }
          seen[actor] = [...found].sort();
        });
      }
      expect(seen).toEqual({
        owner: teamLinks,
        supervisor: teamLinks,
        teamAdmin: teamLinks,
        member: teamLinks,
        viewer: teamLinks,
        staff: teamLinks,
        // No links.read on the team's account: nothing, whatever else they may read.
        orgUser: [],
        stranger: [],
      });

      // org.me: the member's personal links, only those made in the organization.
      const mine = { accountId: personal, query: 'example.com', state: 'active' as const };
      const inOrg = { ...mine, organizationId: cast.organization.id };
      await asActor(db, cast.member.id, async (as) => {
        expect([...(await everyPage(as, mine, 50))].sort()).toEqual(
          [links.orgPersonal.id, outside.id].sort(),
        );
        expect(await everyPage(as, inOrg, 50)).toEqual([links.orgPersonal.id]);
        expect(await everyPage(as, inOrg, 50)).toEqual(await listReference(as, inOrg));
      });
    }));

  it('refuses an unknown field or state, and half a cursor', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const call = (args: string) =>
        asActor(db, user.id, (as) =>
          as.query(
            `select * from public.search_links(p_account_id => $1, p_query => 'x', ${args})`,
            [user.personalAccountId],
          ),
        );
      for (const [args, message] of [
        [`p_field => 'domain'`, 'p_field must be'],
        [`p_state => 'deleted'`, 'p_state must be'],
        [`p_after_id => gen_random_uuid()`, 'go together'],
      ] as const) {
        const error = await expectDatabaseError(call(args));
        expect(error.code, args).toBe('22023');
        expect(error.message, args).toContain(message);
      }
    }));
});
