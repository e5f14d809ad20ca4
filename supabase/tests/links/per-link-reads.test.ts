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
          one<{
            answer: {
              routes: {
                route_id: string | null;
                clicks: number;
                url: string | null;
                position: number | null;
              }[];
            };
          }>(as, 'select public.link_analytics($1, $2) as answer', [aliasId, period]),
        );
        const sorted = <T extends { route_id: string | null; clicks: number }>(items: T[]) =>
          items
            .map(({ route_id, clicks }) => ({ route_id, clicks }))
            .sort((a, b) => (a.route_id ?? '').localeCompare(b.route_id ?? ''));
        expect(sorted(answer.routes)).toEqual(sorted(raw));
        // Routes still there carry their url and position; removed ones none.
        for (const item of answer.routes) {
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

/**
 * The rollup mark moves in steps of minutes (migration 20261122006950): a rollup row of hour H
 * holds the clicks of [H, least(H + 1 hour, mark)), steps add into it, a late batch rebuilds its
 * hour up to the mark. At every stage the rows equal a count over the raw clicks before the mark,
 * and the reads equal a count over the raw clicks of their period.
 */
describe('a rollup mark inside an hour, moved in incremental steps', () => {
  const KEYS = {
    alias_id: 'click_stats_hourly',
    account_id: 'account_click_stats_hourly',
  } as const;
  type Key = keyof typeof KEYS;

  /** The rows of one link or account, and what the raw clicks before the mark make of them. */
  async function expectRowsEqualRawBeforeTheMark(db: pg.ClientBase, key: Key, id: string) {
    const rows = await all(
      db,
      `select extract(epoch from s.hour)::bigint as hour, s.clicks, s.bot_clicks, s.qr_clicks,
         s.countries, s.devices, s.referrers
       from public.${KEYS[key]} s where s.${key} = $1 order by 1`,
      [id],
    );
    const map = (dimension: string) =>
      `coalesce((select jsonb_object_agg(m.value, m.n) from maps m
         where m.hour = r.hour and m.dimension = '${dimension}'), '{}')`;
    const raw = await all(
      db,
      `with r as (
         select date_bin('1 hour', c.time, timestamptz '2000-01-01 00:00:00+00') as hour, c.*
         from public.clicks c, app.click_rollup_state s
         where c.${key} = $1 and c.time < s.rolled_until
       ),
       maps as (
         select r.hour, d.dimension, coalesce(d.value, '') as value, count(*) as n
         from r cross join lateral (values ('countries', r.country), ('devices', r.device),
           ('referrers', r.referrer_host)) as d(dimension, value)
         where not r.is_bot
         group by 1, 2, 3
       )
       select extract(epoch from r.hour)::bigint as hour, count(*)::int as clicks,
         count(*) filter (where r.is_bot)::int as bot_clicks,
         count(*) filter (where r.is_qr)::int as qr_clicks,
         ${map('countries')} as countries, ${map('devices')} as devices,
         ${map('referrers')} as referrers
       from r group by r.hour order by 1`,
      [id],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(raw);
  }

  /**
   * click_analytics of the shortest and the longest period, and of a window ending a minute after the mark (the partial
   * row of the mark's hour inside it whatever the clock says), and link_click_count, against the
   * raw clicks.
   */
  async function expectReadsEqualRaw(db: pg.ClientBase, key: Key, id: string) {
    const windows = await all<{ from: Date; to: Date; unit: string }>(
      db,
      `select now() - p::interval as from, now() as to, app.analytics_unit(p::interval) as unit
       from unnest($1::text[]) as p
       union all
       select s.rolled_until - interval '150 minutes', s.rolled_until + interval '1 minute', 'hour'
       from app.click_rollup_state s`,
      // Minutes from the raw clicks alone; days from rows, the partial one, and raw after it.
      [[PERIODS.last_1_hour, PERIODS.last_30_day]],
    );
    for (const window of windows) {
      const expected = await one<{
        clicks: number;
        bot_clicks: number;
        qr_clicks: number;
        countries: Record<string, number>;
        series: Record<string, number>;
      }>(
        db,
        `with w as (
           select c.* from public.clicks c
           where c.${key} = $1 and c.time >= $2 and c.time < $3
         )
         select (select count(*)::int from w where not w.is_bot) as clicks,
           (select count(*)::int from w where w.is_bot) as bot_clicks,
           (select count(*)::int from w where w.is_qr) as qr_clicks,
           (select coalesce(jsonb_object_agg(x.value, x.n), '{}') from (
             select coalesce(w.country, '') as value, count(*) as n from w where not w.is_bot
             group by 1) as x) as countries,
           (select coalesce(jsonb_object_agg(x.bucket, x.n), '{}') from (
             select extract(epoch from date_trunc($4, w.time, 'UTC'))::bigint::text as bucket,
               count(*) as n
             from w where not w.is_bot group by 1) as x) as series`,
        [id, window.from, window.to, window.unit],
      );
      const { answer } = await one<{
        answer: {
          clicks: number;
          bot_clicks: number;
          qr_clicks: number;
          countries: { value: string | null; clicks: number }[];
          series: { time: string; clicks: number }[];
        };
      }>(db, `select app.click_analytics($1, $2, $3, $4, $5) as answer`, [
        key,
        id,
        window.from,
        window.to,
        window.unit,
      ]);
      expect(
        {
          clicks: Number(answer.clicks),
          bot_clicks: Number(answer.bot_clicks),
          qr_clicks: Number(answer.qr_clicks),
          countries: Object.fromEntries(
            answer.countries.map((item) => [item.value ?? '', Number(item.clicks)]),
          ),
          series: Object.fromEntries(
            answer.series
              .filter((item) => Number(item.clicks) > 0)
              .map((item) => [String(Date.parse(item.time) / 1000), Number(item.clicks)]),
          ),
        },
        `${key} over [${window.from.toISOString()}, ${window.to.toISOString()})`,
      ).toEqual(expected);
    }
    if (key === 'alias_id') {
      const counts = await one<{ answer: string; raw: string }>(
        db,
        `select app.link_click_count($1) as answer,
           (select count(*) from public.clicks c where c.alias_id = $1 and not c.is_bot) as raw`,
        [id],
      );
      expect(counts.answer).toBe(counts.raw);
    }
  }

  async function expectAllEqualRaw(db: pg.ClientBase, scene: AnalyticsScene, stage: string) {
    const targets: [Key, string][] = [
      ['alias_id', scene.links.team.id],
      ['account_id', scene.cast.team.accountId],
    ];
    for (const [key, id] of targets) {
      await expectRowsEqualRawBeforeTheMark(db, key, id).catch((error: unknown) => {
        throw new Error(`${stage}, rows of ${key}: ${String(error)}`);
      });
      await expectReadsEqualRaw(db, key, id).catch((error: unknown) => {
        throw new Error(`${stage}, reads of ${key}: ${String(error)}`);
      });
    }
  }

  it('rows and reads equal the raw clicks: mark mid-hour, a late batch, two steps', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const aliasId = scene.links.team.id;
      // A mark 20 to 25 minutes back, never on an hour: the row of its hour is partial.
      const { mark } = await one<{ mark: Date }>(
        db,
        `select case when m = date_bin('1 hour', m, timestamptz '2000-01-01 00:00:00+00')
           then m - interval '5 minutes' else m end as mark
         from (select app.click_rollup_mark(now()) - interval '20 minutes' as m) as x`,
      );
      // Clicks on both sides of the mark, of its hour's start and of the steps to come, with
      // bots, QR scans and several countries; and the spread of the other tests.
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, country, device, referrer_host,
           is_bot, is_qr)
         select $2::timestamptz + o.offset_s * interval '1 second', a.id, a.account_id,
           (array['US', 'DE', null, 'JP'])[1 + g % 4], (array['desktop', 'mobile'])[1 + g % 2],
           (array[null, 't.co'])[1 + g % 2], g % 5 = 0, g % 3 = 0
         from unnest(array[-3700, -1900, -301, -61, -1, 0, 1, 59, 299, 300, 301, 599, 600, 899,
             1000]) with ordinality as o(offset_s, g)
         join public.aliases a on a.id = $1
         where $2::timestamptz + o.offset_s * interval '1 second' < now()`,
        [aliasId, mark],
      );
      await addClicks(db, aliasId, [
        { ago: '1 second', qr: true },
        { ago: '59 minutes 30 seconds', country: null, count: 2 },
        { ago: '3 hours', device: 'tablet' },
        { ago: '6 days 23 hours', bot: true, device: 'other' },
        { ago: '29 days 23 hours 58 minutes', country: 'IN' },
      ]);
      await db.query('update app.click_rollup_state set rolled_until = $1', [mark]);
      // Rebuilt hour by hour, each stopping at the mark.
      await db.query(
        `select app.rollup_clicks(h.hour, h.hour + interval '1 hour')
         from (select distinct date_bin('1 hour', c.time, timestamptz '2000-01-01 00:00:00+00')
           as hour from public.clicks c where c.alias_id = $1) as h`,
        [aliasId],
      );
      await expectAllEqualRaw(db, scene, 'mark inside an hour');

      // A late batch: clicks before the mark, in its partially rolled hour and an hour before.
      await db.query(
        `select * from app.record_clicks(json_build_array(
           json_build_object('time', $2::timestamptz - interval '2 minutes', 'alias_id', $1::uuid,
             'country', 'FR', 'device', 'mobile', 'is_bot', false, 'is_qr', true),
           json_build_object('time', $2::timestamptz - interval '1 microsecond', 'alias_id', $1::uuid,
             'country', 'FR', 'device', 'desktop', 'is_bot', true, 'is_qr', false),
           json_build_object('time', $2::timestamptz - interval '65 minutes', 'alias_id', $1::uuid,
             'country', 'SE', 'device', 'tablet', 'is_bot', false, 'is_qr', false)))`,
        [aliasId, mark],
      );
      await expectAllEqualRaw(db, scene, 'after a late batch');

      // Two steps, each adding its clicks into the rows of their hours.
      const stepped = await one<{ first: Date; second: Date }>(
        db,
        `select app.advance_click_rollups($1::timestamptz + interval '5 minutes 30 seconds')
           as first, app.advance_click_rollups() as second`,
        [mark],
      );
      expect(stepped.first.getTime()).toBe(mark.getTime() + 5 * 60_000);
      expect(stepped.second.getTime()).toBeGreaterThan(stepped.first.getTime());
      await expectAllEqualRaw(db, scene, 'after two steps');
    }));
});
