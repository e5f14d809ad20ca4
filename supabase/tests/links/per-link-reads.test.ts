import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, asActor, one, useDatabase, withRollback } from '../support/index.ts';
import {
  addClicks,
  createAnalyticsScene,
  expectAnalyticsError,
  type AnalyticsScene,
} from './analytics-fixtures.ts';

/**
 * The per-link reads of raw clicks (route breakdown of link_analytics, click_log_csv for a link,
 * app.link_click_count) answer what a count over public.clicks answers, for a link whose clicks
 * lie in rolled-up hours, in hours after the mark, in the open hour and around the period's
 * start, routed and not. They are the reads the clicks table's per-link index used to serve, so
 * this is what proves a change of that index changes no answer.
 */
const pool = useDatabase();

const PERIODS = {
  last_1_hour: '1 hour',
  last_24_hour: '24 hours',
  last_7_day: '7 days',
  last_30_day: '30 days',
} as const;
type Period = keyof typeof PERIODS;

interface Scene {
  scene: AnalyticsScene;
  aliasId: string;
  routes: string[];
}

/**
 * Clicks of the team's link around every boundary, a third of them sent by one of its two
 * routes; a removed route's clicks (an id no route has any more); another link's clicks in the
 * same hours, which no read of this link may count. The hours are rolled up and the mark put two
 * hours back.
 */
async function setTheScene(db: pg.ClientBase): Promise<Scene> {
  const scene = await createAnalyticsScene(db);
  const aliasId = scene.links.team.id;
  const routes = (
    await all<{ id: string }>(
      db,
      `insert into public.alias_routes (alias_id, account_id, position, url)
       select $1, $2, g, 'https://example.com/route-' || g from generate_series(0, 1) as g
       returning id`,
      [aliasId, scene.cast.team.accountId],
    )
  ).map((row) => row.id);
  const spread = [
    { ago: '1 second', qr: true },
    { ago: '2 minutes', country: 'GB', referrer: 't.co' },
    { ago: '30 minutes', bot: true, device: 'other', browser: null, os: null },
    { ago: '59 minutes 30 seconds', country: null, count: 2 },
    { ago: '61 minutes', country: 'DE', count: 3 },
    { ago: '3 hours', device: 'tablet' },
    { ago: '23 hours 59 minutes' },
    { ago: '24 hours 1 minute', country: 'FR' },
    { ago: '3 days', country: 'JP', count: 4 },
    { ago: '6 days 23 hours', bot: true, device: 'other' },
    { ago: '7 days 1 minute', country: 'BR' },
    { ago: '29 days 23 hours 58 minutes', country: 'IN' },
    { ago: '30 days 2 minutes', country: 'MX' },
  ];
  await addClicks(db, aliasId, spread);
  await addClicks(db, scene.links.orgPersonal.id, spread);
  // Every third click of the link by a route: the first route, the second, a removed one.
  await db.query(
    `with numbered as (
       select c.ctid, row_number() over (order by c.time, c.ip_hash) as n
       from public.clicks c where c.alias_id = $1
     )
     update public.clicks c
     set route_id = case n.n % 9 when 0 then $2::uuid when 3 then $3::uuid
       else '00000000-0000-4000-8000-00000000dead'::uuid end
     from numbered n where c.ctid = n.ctid and n.n % 3 = 0`,
    [aliasId, routes[0], routes[1]],
  );
  await db.query(
    `select app.rollup_clicks(h.hour, h.hour + interval '1 hour')
     from (select distinct date_bin('1 hour', c.time, timestamptz '2000-01-01 00:00:00+00') as hour
           from public.clicks c where c.alias_id = any ($1)) as h`,
    [[aliasId, scene.links.orgPersonal.id]],
  );
  await db.query(
    `update app.click_rollup_state
     set rolled_until = date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00') - interval '2 hours'`,
  );
  return { scene, aliasId, routes };
}

describe('per-link reads of raw clicks equal a count over public.clicks', () => {
  for (const [period, interval] of Object.entries(PERIODS) as [Period, string][]) {
    it(`the route breakdown of link_analytics, ${period}`, () =>
      withRollback(pool, async (db) => {
        const { scene, aliasId, routes } = await setTheScene(db);
        const raw = await all<{ route_id: string | null; clicks: number }>(
          db,
          `select c.route_id, count(*)::int as clicks from public.clicks c
           where c.alias_id = $1 and c.time >= now() - $2::interval and c.time < now()
             and not c.is_bot
           group by 1`,
          [aliasId, interval],
        );
        expect(raw.length).toBeGreaterThan(1);
        const { answer } = await asActor(db, scene.cast.viewer.id, (as) =>
          one<{ answer: { routes: { route_id: string | null; clicks: number }[] } }>(
            as,
            'select public.link_analytics($1, $2) as answer',
            [aliasId, period],
          ),
        );
        const sorted = <T extends { route_id: string | null; clicks: number }>(items: T[]) =>
          items
            .map(({ route_id, clicks }) => ({ route_id, clicks }))
            .sort((a, b) => (a.route_id ?? '').localeCompare(b.route_id ?? ''));
        expect(sorted(answer.routes)).toEqual(sorted(raw));
        // Routes still there carry their url and position; removed ones none.
        for (const item of answer.routes as {
          route_id: string | null;
          url: string | null;
          position: number | null;
        }[]) {
          const index = item.route_id === null ? -1 : routes.indexOf(item.route_id);
          expect(item.position).toBe(index < 0 ? null : index);
          expect(item.url).toBe(index < 0 ? null : `https://example.com/route-${index}`);
        }
        const order = answer.routes.map((item) => item.clicks);
        expect(order).toEqual([...order].sort((a, b) => b - a));
      }));

    it(`click_log_csv of the link, ${period}`, () =>
      withRollback(pool, async (db) => {
        const { scene, aliasId } = await setTheScene(db);
        const raw = await all<{ line: string }>(
          db,
          `select to_char(c.time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ','
             || coalesce(c.country, '') || ',' || c.is_bot || ',' || c.is_qr as line
           from public.clicks c
           where c.alias_id = $1 and c.time >= now() - $2::interval and c.time < now()
           order by c.time`,
          [aliasId, interval],
        );
        expect(raw.length).toBeGreaterThan(0);
        const { csv } = await asActor(db, scene.cast.member.id, (as) =>
          one<{ csv: string }>(as, 'select public.click_log_csv($1, null, $2) as csv', [
            aliasId,
            period,
          ]),
        );
        const lines = csv.split('\r\n').slice(1, -1);
        expect(
          lines.map((line) => {
            const fields = line.split(',');
            return [fields[0], fields[3], fields[8], fields[9]].join(',');
          }),
        ).toEqual(raw.map((row) => row.line));
      }));
  }

  it('app.link_click_count: rolled-up hours before the mark and raw clicks after it', () =>
    withRollback(pool, async (db) => {
      const { aliasId } = await setTheScene(db);
      const raw = await one<{ clicks: string }>(
        db,
        `select count(*) as clicks from public.clicks c where c.alias_id = $1 and not c.is_bot`,
        [aliasId],
      );
      const answer = await one<{ clicks: string }>(
        db,
        'select app.link_click_count($1) as clicks',
        [aliasId],
      );
      expect(Number(answer.clicks)).toBe(Number(raw.clicks));
      expect(Number(answer.clicks)).toBeGreaterThan(10);
    }));

  it('click_log_csv refuses a period of more than 100,000 clicks, bots and rolled-up hours counted', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const aliasId = scene.links.team.id;
      // 100,001 clicks: 99,990 in an hour rolled up before the mark (a third of them robots),
      // 11 in the open hour.
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, device, is_bot)
         select case when g <= 99990 then now() - interval '3 hours' else now() - interval '1 second' end,
           a.id, a.account_id, 'desktop', g % 3 = 0
         from generate_series(1, 100001) as g, public.aliases a where a.id = $1`,
        [aliasId],
      );
      await db.query(
        `select app.rollup_clicks(now() - interval '3 hours', now() - interval '3 hours' + interval '1 microsecond')`,
      );
      await db.query(
        `update app.click_rollup_state
         set rolled_until = date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00')`,
      );
      const csv = (period: string) =>
        asActor(db, scene.cast.member.id, (as) =>
          as.query('select public.click_log_csv($1, null, $2)', [aliasId, period]),
        );
      await expectAnalyticsError(csv('last_24_hour'), 'click_log_too_large');
      // The rolled-up hour is outside the last hour: its 11 clicks are listed.
      const { rows } = await csv('last_1_hour');
      expect(String(Object.values(rows[0] as object)[0]).split('\r\n')).toHaveLength(13);
    }));
});
