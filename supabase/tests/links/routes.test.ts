import { describe, expect, it } from 'vitest';
import { asActor, one, useDatabase, withRollback } from '../support/index.ts';
import { expectLinkError } from './fixtures.ts';
import { createLinkScene } from './scene.ts';

/**
 * The route builder's RPCs (migration 002900): the builder data behind the redirect_routes
 * feature, saving a link's routes all or nothing under the tables' policies, the new values'
 * arguments, and the analytics breakdown by route.
 */
const pool = useDatabase();

const GERMANY = {
  url: 'https://example.de/',
  match: 'all',
  rules: [{ value: 'country', condition: 'if', operation: 'equals', operands: ['DE'] }],
};

describe('route_builder_init', () => {
  it('answers the vocabulary to callers with redirect_routes, and refuses the others', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      const data = await asActor(db, cast.member.id, (as) =>
        one<{ data: Record<string, { id: string }[]> }>(
          as,
          `select public.route_builder_init() as data`,
        ),
      );
      expect(Object.keys(data.data).sort()).toEqual([
        'conditions',
        'operations',
        'urls_conditions',
        'values',
      ]);
      expect(data.data.values?.map((v) => v.id)).toEqual(
        expect.arrayContaining(['country', 'query', 'time_of_day', 'day_of_week']),
      );
      await expectLinkError(
        asActor(db, cast.stranger.id, (as) => as.query(`select public.route_builder_init()`)),
        'feature_not_allowed',
      );
    }));
});

describe('save_alias_routes', () => {
  it('replaces the routes in order, all or nothing, for those who manage the link', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const save = (actor: string, routes: unknown) =>
        asActor(db, actor, (as) =>
          one<{ saved: number }>(as, `select public.save_alias_routes($1, $2) as saved`, [
            links.teamByMember.id,
            JSON.stringify(routes),
          ]),
        );
      const weekend = {
        url: 'https://example.com/weekend',
        match: 'any',
        rules: [
          {
            value: 'day_of_week',
            condition: 'if',
            operation: 'in',
            operands: ['saturday', 'sunday'],
            argument: 'Europe/Berlin',
          },
          { value: 'query', condition: 'if', operation: 'equals', operands: ['1'], argument: 'w' },
        ],
      };
      expect((await save(cast.member.id, [GERMANY, weekend])).saved).toBe(2);
      const stored = await db.query<{ url: string; rules: number }>(
        `select r.url, count(u.id)::int as rules from public.alias_routes r
         left join public.alias_route_rules u on u.route_id = r.id
         where r.alias_id = $1 group by r.url, r.position order by r.position`,
        [links.teamByMember.id],
      );
      expect(stored.rows).toEqual([
        { url: 'https://example.de/', rules: 1 },
        { url: 'https://example.com/weekend', rules: 2 },
      ]);

      // An unsafe URL in the second route: nothing changes.
      await expectLinkError(
        save(cast.member.id, [weekend, { ...GERMANY, url: 'http://10.0.0.1/' }]),
        'url_not_allowed',
      );
      // A time zone nobody knows, a query rule without its parameter, a bad time.
      for (const rule of [
        { ...weekend.rules[0], argument: 'Mars/Olympus' },
        { value: 'query', condition: 'if', operation: 'equals', operands: ['1'] },
        { value: 'time_of_day', condition: 'if', operation: 'less_than', operands: ['25:00'] },
        { value: 'country', condition: 'if', operation: 'equals', operands: ['DE'], argument: 'x' },
      ]) {
        await expectLinkError(
          save(cast.member.id, [{ ...GERMANY, rules: [rule] }]),
          'route_rule_invalid',
        );
      }
      const after = await db.query(`select url from public.alias_routes where alias_id = $1`, [
        links.teamByMember.id,
      ]);
      expect(after.rowCount).toBe(2);

      // A viewer of the team, and a stranger, may not.
      await expectLinkError(save(cast.viewer.id, []), 'feature_not_allowed');
      await expectLinkError(save(cast.stranger.id, []), 'feature_not_allowed');
      expect((await save(cast.member.id, [])).saved).toBe(0);
    }));
});

describe('link_analytics by route', () => {
  it('counts the clicks each route sent, and the destination’s under null', () =>
    withRollback(pool, async (db) => {
      const { cast, links } = await createLinkScene(db);
      const aliasId = links.teamByMember.id;
      await db.query(
        `update public.accounts set features = features || '{use_analytics}' where id = $1`,
        [cast.team.accountId],
      );
      const route = await one<{ id: string }>(
        db,
        `insert into public.alias_routes (alias_id, account_id, position, url)
         values ($1, $2, 0, 'https://example.de/') returning id`,
        [aliasId, cast.team.accountId],
      );
      // Before the transaction began: the window ends at now(), the transaction's start.
      const time = new Date(Date.now() - 60_000).toISOString();
      await db.query(`select app.record_clicks($1::json)`, [
        JSON.stringify([
          { time, alias_id: aliasId, device: 'mobile', route_id: route.id },
          { time, alias_id: aliasId, device: 'mobile', route_id: route.id },
          { time, alias_id: aliasId, device: 'mobile' },
          // Not a route of this link: counted on the destination.
          {
            time,
            alias_id: aliasId,
            device: 'mobile',
            route_id: '00000000-0000-4000-8000-000000000999',
          },
        ]),
      ]);
      const analytics = await asActor(db, cast.member.id, (as) =>
        one<{ data: { routes: unknown[] } }>(as, `select public.link_analytics($1) as data`, [
          aliasId,
        ]),
      );
      expect(analytics.data.routes).toEqual([
        { route_id: route.id, url: 'https://example.de/', position: 0, clicks: 2 },
        { route_id: null, url: null, position: null, clicks: 2 },
      ]);
    }));
});
