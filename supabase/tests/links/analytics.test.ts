import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, asActor, one, useDatabase, withRollback } from '../support/index.ts';
import { addClicks, createAnalyticsScene, type AnalyticsScene } from './analytics-fixtures.ts';

/**
 * The analytics RPCs' numbers equal a count over the raw clicks of the same window,
 * [now() - period, now()), for each period, whichever way the window splits between rollups and
 * raw clicks: clicks on both sides of the period's start (inside the same hour), hours rolled up
 * before the mark, hours after it that are rolled up but must not be read twice, and the open
 * hour. Bots are counted in bot_clicks only.
 */
const pool = useDatabase();

const PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'] as const;
type Period = (typeof PERIODS)[number];
const UNIT: Record<Period, string> = {
  last_1_hour: 'minute',
  last_24_hour: 'hour',
  last_7_day: 'day',
  last_30_day: 'day',
};
const INTERVAL: Record<Period, string> = {
  last_1_hour: '1 hour',
  last_24_hour: '24 hours',
  last_7_day: '7 days',
  last_30_day: '30 days',
};

interface Item {
  value: string | null;
  clicks: number;
}

interface Analytics {
  period: string;
  unit: string;
  clicks: number;
  bot_clicks: number;
  qr_clicks: number;
  series: { time: string; clicks: number }[];
  countries: Item[];
  devices: Item[];
  browsers: Item[];
  oses: Item[];
  referrers: Item[];
}

const DIMENSIONS = {
  countries: 'country',
  devices: 'device',
  browsers: 'browser',
  oses: 'os',
  referrers: 'referrer_host',
} as const;

/** The same figures counted straight from public.clicks, independently of the RPC's SQL. */
async function countRaw(
  db: pg.ClientBase,
  column: 'alias_id' | 'account_id',
  key: string,
  period: Period,
) {
  const window = `c.${column} = $1 and c.time >= now() - $2::interval and c.time < now()`;
  const totals = await one<{ clicks: number; bot_clicks: number; qr_clicks: number }>(
    db,
    `select (count(*) filter (where not is_bot))::int as clicks,
       (count(*) filter (where is_bot))::int as bot_clicks, (count(*) filter (where is_qr))::int as qr_clicks
     from public.clicks c where ${window}`,
    [key, INTERVAL[period]],
  );
  const series = await all<{ time: Date; clicks: number }>(
    db,
    `select date_trunc($3, c.time at time zone 'UTC') at time zone 'UTC' as time, count(*)::int as clicks
     from public.clicks c where ${window} and not c.is_bot group by 1 order by 1`,
    [key, INTERVAL[period], UNIT[period]],
  );
  const breakdowns: Record<string, Item[]> = {};
  for (const [name, dimension] of Object.entries(DIMENSIONS)) {
    breakdowns[name] = await all<Item>(
      db,
      `select c.${dimension} as value, count(*)::int as clicks
       from public.clicks c where ${window} and not c.is_bot
       group by 1 order by 2 desc, coalesce(c.${dimension}, '')`,
      [key, INTERVAL[period]],
    );
  }
  return { ...totals, series, breakdowns };
}

function expectEqualToRaw(
  answer: Analytics,
  raw: Awaited<ReturnType<typeof countRaw>>,
  period: Period,
) {
  expect(answer.period).toBe(period);
  expect(answer.unit).toBe(UNIT[period]);
  expect({
    clicks: answer.clicks,
    bot_clicks: answer.bot_clicks,
    qr_clicks: answer.qr_clicks,
  }).toEqual({
    clicks: raw.clicks,
    bot_clicks: raw.bot_clicks,
    qr_clicks: raw.qr_clicks,
  });
  const nonZero = answer.series
    .filter((bucket) => bucket.clicks > 0)
    .map((bucket) => ({ time: new Date(bucket.time).toISOString(), clicks: bucket.clicks }));
  expect(nonZero).toEqual(
    raw.series.map((bucket) => ({ time: bucket.time.toISOString(), clicks: bucket.clicks })),
  );
  expect(answer.series.reduce((sum, bucket) => sum + bucket.clicks, 0)).toBe(raw.clicks);
  for (const name of Object.keys(DIMENSIONS) as (keyof typeof DIMENSIONS)[]) {
    expect(answer[name], name).toEqual(raw.breakdowns[name]);
  }
}

/**
 * Clicks around every boundary, for the team's link and the member's personal link; the hours
 * that hold them are rolled up, then the mark is put two hours back (so the last hours are read
 * raw although rollups exist for some of them).
 */
async function setTheScene(db: pg.ClientBase, scene: AnalyticsScene) {
  const spread = [
    { ago: '1 second', device: 'mobile', os: 'iOS', browser: 'Mobile Safari', qr: true },
    { ago: '2 minutes', country: 'GB', referrer: 't.co' },
    { ago: '30 minutes', bot: true, device: 'other', browser: null, os: null },
    { ago: '59 minutes 30 seconds', country: null, count: 2 },
    { ago: '61 minutes', country: 'DE', referrer: 'google.com', count: 3 },
    { ago: '3 hours', device: 'tablet', os: 'iPadOS', browser: 'Safari' },
    { ago: '23 hours 59 minutes', referrer: 'google.com' },
    { ago: '24 hours 1 minute', country: 'FR' },
    { ago: '3 days', country: 'JP', count: 4 },
    { ago: '6 days 23 hours', bot: true, device: 'other' },
    { ago: '7 days 1 minute', country: 'BR' },
    { ago: '29 days 23 hours 58 minutes', country: 'IN', referrer: 'news.ycombinator.com' },
    { ago: '30 days 2 minutes', country: 'MX' },
    { ago: '45 days', country: 'CA' },
  ];
  await addClicks(db, scene.links.team.id, spread);
  await addClicks(db, scene.links.orgPersonal.id, spread.slice(0, 8));
  await db.query(
    `select app.rollup_clicks(h.hour, h.hour + interval '1 hour')
     from (select distinct date_bin('1 hour', c.time, timestamptz '2000-01-01 00:00:00+00') as hour
           from public.clicks c where c.alias_id = any ($1)) as h`,
    [[scene.links.team.id, scene.links.orgPersonal.id]],
  );
  await db.query(
    `update app.click_rollup_state
     set rolled_until = date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00') - interval '2 hours'`,
  );
}

describe('link and account analytics equal a count over the raw clicks', () => {
  for (const period of PERIODS) {
    it(`link_analytics, ${period}`, () =>
      withRollback(pool, async (db) => {
        const scene = await createAnalyticsScene(db);
        await setTheScene(db, scene);
        const raw = await countRaw(db, 'alias_id', scene.links.team.id, period);
        expect(raw.clicks).toBeGreaterThan(0);
        const { answer } = await asActor(db, scene.cast.viewer.id, (as) =>
          one<{ answer: Analytics }>(as, 'select public.link_analytics($1, $2) as answer', [
            scene.links.team.id,
            period,
          ]),
        );
        expectEqualToRaw(answer, raw, period);
      }));

    it(`account_analytics, ${period}`, () =>
      withRollback(pool, async (db) => {
        const scene = await createAnalyticsScene(db);
        await setTheScene(db, scene);
        // The team's account: its plan is the organization's.
        const raw = await countRaw(db, 'account_id', scene.cast.team.accountId, period);
        const { answer } = await asActor(db, scene.cast.viewer.id, (as) =>
          one<{ answer: Analytics }>(as, 'select public.account_analytics($1, $2) as answer', [
            scene.cast.team.accountId,
            period,
          ]),
        );
        expectEqualToRaw(answer, raw, period);
      }));
  }

  it('the series has every bucket of the period, empty ones as zero', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await setTheScene(db, scene);
      const lengths = await asActor(db, scene.cast.member.id, async (as) => {
        const result: Record<string, number> = {};
        for (const period of PERIODS) {
          const { answer } = await one<{ answer: Analytics }>(
            as,
            'select public.link_analytics($1, $2) as answer',
            [scene.links.team.id, period],
          );
          result[period] = answer.series.length;
        }
        return result;
      });
      // A window of n units touches n + 1 buckets unless it starts on a boundary.
      expect(lengths.last_1_hour).toBeGreaterThanOrEqual(60);
      expect(lengths.last_1_hour).toBeLessThanOrEqual(61);
      expect(lengths.last_24_hour).toBeGreaterThanOrEqual(24);
      expect(lengths.last_24_hour).toBeLessThanOrEqual(25);
      expect(lengths.last_7_day).toBeGreaterThanOrEqual(7);
      expect(lengths.last_7_day).toBeLessThanOrEqual(8);
      expect(lengths.last_30_day).toBeGreaterThanOrEqual(30);
      expect(lengths.last_30_day).toBeLessThanOrEqual(31);
    }));

  it('the default period is last_24_hour', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await setTheScene(db, scene);
      const { answer } = await asActor(db, scene.cast.member.id, (as) =>
        one<{ answer: Analytics }>(as, 'select public.link_analytics($1) as answer', [
          scene.links.team.id,
        ]),
      );
      expectEqualToRaw(
        answer,
        await countRaw(db, 'alias_id', scene.links.team.id, 'last_24_hour'),
        'last_24_hour',
      );
    }));

  it('whole hours before the mark are read from the rollups, not from the raw clicks', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await setTheScene(db, scene);
      const read = () =>
        asActor(db, scene.cast.member.id, (as) =>
          one<{ answer: Analytics }>(
            as,
            `select public.link_analytics($1, 'last_7_day') as answer`,
            [scene.links.team.id],
          ),
        ).then((row) => row.answer.clicks);
      const before = await read();
      // Five more human clicks in the rolled-up hour three days ago, in the rollup only.
      await db.query(
        `update public.click_stats_hourly set clicks = clicks + 5
         where alias_id = $1 and hour = date_bin('1 hour', now() - interval '3 days', timestamptz '2000-01-01')`,
        [scene.links.team.id],
      );
      expect(await read()).toBe(before + 5);
      // The hour 61 minutes ago is rolled up too, but after the mark: read raw, never twice.
      await db.query(
        `update public.click_stats_hourly set clicks = clicks + 100
         where alias_id = $1 and hour = date_bin('1 hour', now() - interval '61 minutes', timestamptz '2000-01-01')`,
        [scene.links.team.id],
      );
      expect(await read()).toBe(before + 5);
    }));

  it('clicks recorded by the redirector (app.record_clicks) count at once, and late ones rebuild their hour', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      await db.query(
        `update app.click_rollup_state
         set rolled_until = date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00')`,
      );
      const batch = (ago: string) =>
        db.query(
          `select * from app.record_clicks(json_build_array(json_build_object(
             'time', now() - $2::interval, 'alias_id', $1::uuid, 'country', 'SE', 'device', 'mobile',
             'browser', 'Chrome', 'os', 'Android', 'referrer_host', 'Example.ORG', 'is_bot', false,
             'is_qr', false, 'ip_hash', repeat('0f', 32))))`,
          [scene.links.team.id, ago],
        );
      await batch('10 seconds');
      // From a batch retried after its hour was rolled up: the hour is rebuilt.
      await batch('5 hours');
      const read = (period: Period) =>
        asActor(db, scene.cast.member.id, (as) =>
          one<{ answer: Analytics }>(as, 'select public.link_analytics($1, $2) as answer', [
            scene.links.team.id,
            period,
          ]),
        ).then((row) => row.answer);
      expect((await read('last_1_hour')).clicks).toBe(1);
      const day = await read('last_24_hour');
      expect(day.clicks).toBe(2);
      expect(day.countries).toEqual([{ value: 'SE', clicks: 2 }]);
      expect(day.referrers).toEqual([{ value: 'example.org', clicks: 2 }]);
      const rolled = await one<{ clicks: number }>(
        db,
        `select clicks from public.click_stats_hourly
         where alias_id = $1 and hour = date_bin('1 hour', now() - interval '5 hours', timestamptz '2000-01-01')`,
        [scene.links.team.id],
      );
      expect(rolled.clicks).toBe(1);
    }));
});
