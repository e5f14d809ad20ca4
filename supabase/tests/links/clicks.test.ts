import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { all, asActor, one, useDatabase, withRollback } from '../support/index.ts';
import { expectRefusedAs, ids } from './fixtures.ts';
import { ACTORS, createLinkScene, linkIds, VISIBLE_LINKS, type LinkScene } from './scene.ts';

/**
 * Clicks and their hourly rollups: app.rollup_clicks rebuilds, for a window, exactly what a count
 * over the raw clicks gives; rerunning it changes nothing; the monthly partitions take over rows
 * the default partition caught; and the statistics are read by the same actors as the links.
 */
const pool = useDatabase();

// A window no seed or other test writes clicks in (the default partition catches it).
const WINDOW = { from: '2031-03-10T00:00:00Z', to: '2031-03-10T03:00:00Z' };

/**
 * 600 clicks spread over the scene's links inside the window (some bots, some QR scans, some
 * without country or referrer), plus a few just outside it.
 */
async function insertClicks(db: pg.ClientBase, scene: LinkScene) {
  const links = [
    scene.links.teamByMember,
    scene.links.teamByAdmin,
    scene.links.orgPersonal,
    scene.links.guest,
  ];
  await db.query(
    `insert into public.clicks (time, alias_id, account_id, country, device, browser, os,
       referrer_host, is_bot, is_qr)
     select $1::timestamptz + (g * interval '17 seconds'), a.id, a.account_id,
       (array['US', 'DE', 'FR', null])[1 + g % 4], (array['desktop', 'mobile', 'tablet'])[1 + g % 3],
       (array['Chrome', 'Safari'])[1 + g % 2], (array['Windows', 'iOS', 'Android'])[1 + g % 3],
       (array['google.com', null, 't.co'])[1 + g % 3], g % 10 = 0, g % 7 = 0
     from generate_series(0, 599) as g
     join public.aliases a on a.id = ($2::uuid[])[1 + g % 4]`,
    [WINDOW.from, links.map((l) => l.id)],
  );
  await db.query(
    `insert into public.clicks (time, alias_id, account_id)
     select t, $1, $2 from unnest($3::timestamptz[]) as t`,
    [
      scene.links.teamByMember.id,
      scene.cast.team.accountId,
      ['2031-03-09T23:59:59Z', '2031-03-10T03:00:00Z'],
    ],
  );
  return links.map((l) => l.id);
}

/** Rolls up a window of the far future: the mark is moved past it first (rollups stop there). */
const rollup = async (db: pg.ClientBase, from = WINDOW.from, to = WINDOW.to) => {
  await db.query(`update app.click_rollup_state set rolled_until = '2031-03-11T00:00:00Z'`);
  const row = await one<{ result: { link_hours: number; account_hours: number } }>(
    db,
    `select app.rollup_clicks($1, $2) as result`,
    [from, to],
  );
  return row.result;
};

interface HourRow {
  key: string;
  hour: string;
  clicks: number;
  bot_clicks: number;
  qr_clicks: number;
  countries: Record<string, number>;
  devices: Record<string, number>;
  browsers: Record<string, number>;
  oses: Record<string, number>;
  referrers: Record<string, number>;
}

/** The expected rollup rows, counted straight from the raw clicks; key is alias or account. */
function countRaw(db: pg.ClientBase, key: 'alias_id' | 'account_id', aliasIds: string[]) {
  const map = (column: string) =>
    `(select coalesce(jsonb_object_agg(m.v, m.n), '{}') from (
        select coalesce(r.${column}, '') as v, count(*) as n from raw r
        where r.k = t.k and r.hour = t.hour and not r.is_bot
        group by 1) m)`;
  return all<HourRow>(
    db,
    `with raw as (
       select c.*, c.${key} as k, date_bin('1 hour', c.time, timestamptz '2000-01-01') as hour
       from public.clicks c
       where c.alias_id = any ($1) and c.${key} is not null and c.time >= $2 and c.time < $3
     ),
     totals as (
       select k, hour, count(*)::int as clicks, (count(*) filter (where is_bot))::int as bot_clicks,
         (count(*) filter (where is_qr))::int as qr_clicks
       from raw group by k, hour
     )
     select t.k::text as key, t.hour, t.clicks, t.bot_clicks, t.qr_clicks,
       ${map('country')} as countries, ${map('device')} as devices, ${map('browser')} as browsers,
       ${map('os')} as oses, ${map('referrer_host')} as referrers
     from totals t
     order by 1, 2`,
    [aliasIds, WINDOW.from, WINDOW.to],
  );
}

function readRollups(db: pg.ClientBase, table: string, key: string, keys: string[]) {
  return all<HourRow>(
    db,
    `select ${key}::text as key, hour, clicks, bot_clicks, qr_clicks, countries, devices,
       browsers, oses, referrers
     from public.${table}
     where ${key} = any ($1) and hour >= $2 and hour < $3
     order by 1, 2`,
    [keys, WINDOW.from, WINDOW.to],
  );
}

describe('app.rollup_clicks', () => {
  it('per link and per account, equals a count over the raw clicks of the window', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const aliasIds = await insertClicks(db, scene);
      const result = await rollup(db);
      expect(result.link_hours).toBeGreaterThanOrEqual(12);

      const expectedLinks = await countRaw(db, 'alias_id', aliasIds);
      expect(expectedLinks).toHaveLength(12);
      expect(await readRollups(db, 'click_stats_hourly', 'alias_id', aliasIds)).toEqual(
        expectedLinks,
      );

      const accounts = [scene.cast.team.accountId, scene.cast.member.personalAccountId];
      const expectedAccounts = await countRaw(db, 'account_id', aliasIds);
      expect(expectedAccounts).toHaveLength(6);
      expect(await readRollups(db, 'account_click_stats_hourly', 'account_id', accounts)).toEqual(
        expectedAccounts,
      );
      // A map counts humans only: it sums to clicks minus bots.
      for (const row of expectedLinks) {
        const humans = Object.values(row.countries).reduce((sum, n) => sum + n, 0);
        expect(humans).toBe(row.clicks - row.bot_clicks);
      }
      // The clicks just outside the window were left out.
      const total = expectedLinks.reduce((sum, row) => sum + row.clicks, 0);
      expect(total).toBe(600);
    }));

  it('is idempotent, and a later run picks up late clicks of the same hours', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const aliasIds = await insertClicks(db, scene);
      await rollup(db);
      const first = await readRollups(db, 'click_stats_hourly', 'alias_id', aliasIds);
      // A window that only touches the hours (mid-hour bounds) rebuilds them whole.
      await rollup(db, '2031-03-10T00:30:00Z', '2031-03-10T02:10:00Z');
      expect(await readRollups(db, 'click_stats_hourly', 'alias_id', aliasIds)).toEqual(first);
      await db.query(
        `insert into public.clicks (time, alias_id, account_id, country)
         values ('2031-03-10T01:15:00Z', $1, $2, 'JP')`,
        [scene.links.teamByAdmin.id, scene.cast.team.accountId],
      );
      await rollup(db);
      const row = await one<{ clicks: number; countries: Record<string, number> }>(
        db,
        `select clicks, countries from public.click_stats_hourly
         where alias_id = $1 and hour = '2031-03-10T01:00:00Z'`,
        [scene.links.teamByAdmin.id],
      );
      const before = first.find(
        (r) => r.key === scene.links.teamByAdmin.id && new Date(r.hour).getUTCHours() === 1,
      );
      expect(row.clicks).toBe((before?.clicks ?? 0) + 1);
      expect(row.countries.JP).toBe(1);
    }));

  it('refuses an empty or reversed window', () =>
    withRollback(pool, async (db) => {
      await expect(rollup(db, WINDOW.to, WINDOW.from)).rejects.toMatchObject({ code: '22023' });
    }));

  it('is for the scheduler (service role) only', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      await expectRefusedAs(
        db,
        cast.owner.id,
        `select app.rollup_clicks(now() - interval '1 hour', now())`,
      );
      await expectRefusedAs(db, null, `select app.rollup_clicks(now() - interval '1 hour', now())`);
    }));
});

describe('click partitions', () => {
  it('new monthly partitions take over the rows the default partition caught for their month', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const far = await one<{ at: string }>(
        db,
        `select (date_trunc('month', now(), 'UTC') + interval '9 months 3 days') as at`,
      );
      await db.query(`insert into public.clicks (time, alias_id, account_id) values ($1, $2, $3)`, [
        far.at,
        scene.links.stranger.id,
        scene.cast.stranger.personalAccountId,
      ]);
      const where = () =>
        one<{ partition: string }>(
          db,
          `select tableoid::regclass::text as partition from public.clicks where alias_id = $1`,
          [scene.links.stranger.id],
        );
      expect((await where()).partition).toBe('click_partitions.clicks_default');
      const created = await one<{ n: number }>(
        db,
        `select app.ensure_click_partitions(now(), 10) as n`,
      );
      expect(created.n).toBeGreaterThanOrEqual(1);
      expect((await where()).partition).toMatch(/^click_partitions\.clicks_\d{4}_\d{2}$/);
      // A second call finds everything in place.
      const again = await one<{ n: number }>(
        db,
        `select app.ensure_click_partitions(now(), 10) as n`,
      );
      expect(again.n).toBe(0);
    }));

  it("queue their BRIN's filled page ranges for summarizing, new partitions too", () =>
    withRollback(pool, async (db) => {
      const lacking = () =>
        one<{ n: number }>(
          db,
          `select count(*)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
           where i.inhparent = 'public.clicks_time_brin_idx'::regclass
             and not coalesce('autosummarize=on' = any (c.reloptions), false)`,
        ).then((row) => row.n);
      expect(await lacking()).toBe(0);
      const created = await one<{ n: number }>(
        db,
        `select app.ensure_click_partitions(now(), 10) as n`,
      );
      expect(created.n).toBeGreaterThanOrEqual(1);
      expect(await lacking()).toBe(created.n);
      const set = await one<{ n: number }>(db, 'select app.autosummarize_click_ranges() as n');
      expect(set.n).toBe(created.n);
      expect(await lacking()).toBe(0);
    }));

  it('are out of the API: no one but the owner reaches the partitions schema', () =>
    withRollback(pool, async (db) => {
      const { cast } = await createLinkScene(db);
      await expectRefusedAs(db, cast.staff.id, `select 1 from click_partitions.clicks_default`);
      await expectRefusedAs(db, null, `select 1 from click_partitions.clicks_default`);
    }));
});

describe('statistics by actor', () => {
  it('readers of a link read its hourly stats; readers of an account its account stats', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      const aliasIds = await insertClicks(db, scene);
      await rollup(db);
      for (const actor of ACTORS) {
        const expected = VISIBLE_LINKS[actor].filter((name) => name !== 'stranger');
        const seen = await asActor(db, scene.cast[actor].id, (as) =>
          ids(
            as,
            `select distinct alias_id as id from public.click_stats_hourly
             where alias_id = any ($1)`,
            [aliasIds],
          ),
        );
        expect(seen, actor).toEqual(linkIds(scene, expected));
      }
      const team = scene.cast.team.accountId;
      for (const [actor, visible] of [
        ['viewer', true],
        ['teamAdmin', true],
        ['owner', true],
        ['stranger', false],
        ['orgUser', false],
        ['staff', true],
      ] as const) {
        const seen = await asActor(db, scene.cast[actor].id, (as) =>
          ids(
            as,
            `select distinct account_id as id from public.account_click_stats_hourly
             where account_id = $1`,
            [team],
          ),
        );
        expect(seen, actor).toEqual(visible ? [team] : []);
      }
      for (const table of ['clicks', 'click_stats_hourly', 'account_click_stats_hourly']) {
        await expectRefusedAs(db, null, `select 1 from public.${table}`);
      }
    }));

  it('raw clicks (the logs) need the download_logs feature too; nobody writes clicks over the API', () =>
    withRollback(pool, async (db) => {
      const scene = await createLinkScene(db);
      await insertClicks(db, scene);
      const rawOf = (actor: string, aliasId: string) =>
        asActor(db, actor, (as) =>
          ids(as, `select distinct alias_id as id from public.clicks where alias_id = $1`, [
            aliasId,
          ]),
        );
      // The team's plan has download_logs; the member's personal account has none.
      expect(await rawOf(scene.cast.viewer.id, scene.links.teamByMember.id)).toEqual([
        scene.links.teamByMember.id,
      ]);
      expect(await rawOf(scene.cast.member.id, scene.links.orgPersonal.id)).toEqual([]);
      expect(await rawOf(scene.cast.stranger.id, scene.links.teamByMember.id)).toEqual([]);
      expect(await rawOf(scene.cast.staff.id, scene.links.guest.id)).toEqual([
        scene.links.guest.id,
      ]);
      await expectRefusedAs(
        db,
        scene.cast.teamAdmin.id,
        `insert into public.clicks (time, alias_id, account_id) values (now(), $1, $2)`,
        [scene.links.teamByAdmin.id, scene.cast.team.accountId],
      );
    }));
});
