import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { asActor, expectRefused, one, useDatabase, withRollback } from '../support/index.ts';
import {
  ANALYTICS_FEATURES,
  createAnalyticsScene,
  expectAnalyticsError,
} from '../links/analytics-fixtures.ts';

/**
 * link_analytics_access (migration 001800): what the analytics page offers each actor. It must
 * agree with the RPCs that decide (share_link_analytics, click_log_csv, link_analytics), which
 * migration 001110's tests cover.
 */
const pool = useDatabase();

interface Access {
  alias_id: string;
  periods: string[];
  can_share: boolean;
  share_token: string | null;
  can_download_logs: boolean;
}

const ALL_PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'];

const access = (db: pg.ClientBase, actor: string | null, aliasId: string) =>
  asActor(db, actor, (as) =>
    one<{ answer: Access }>(as, 'select public.link_analytics_access($1) as answer', [aliasId]),
  ).then((row) => row.answer);

const share = (db: pg.ClientBase, actor: string, aliasId: string) =>
  asActor(db, actor, (as) =>
    one<{ token: string }>(as, 'select public.share_link_analytics($1) as token', [aliasId]),
  ).then((row) => row.token);

describe('link_analytics_access by actor', () => {
  it('link managers and the creator may share; viewers only read; all see the periods', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const link = scene.links.team.id;
      for (const actor of ['owner', 'supervisor', 'teamAdmin', 'member'] as const) {
        expect(await access(db, scene.cast[actor].id, link), actor).toMatchObject({
          alias_id: link,
          periods: ALL_PERIODS,
          can_share: true,
          share_token: null,
          can_download_logs: true,
        });
      }
      expect(await access(db, scene.cast.viewer.id, link)).toMatchObject({
        periods: ALL_PERIODS,
        can_share: false,
        can_download_logs: true,
      });
      // Staff read everything but share only what they manage.
      expect(await access(db, scene.cast.staff.id, link)).toMatchObject({
        periods: ALL_PERIODS,
        can_share: false,
        can_download_logs: true,
      });
    }));

  it('strangers and organization users without access are told the link does not exist', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const link = scene.links.team.id;
      await expectAnalyticsError(access(db, scene.cast.stranger.id, link), 'alias_not_found');
      await expectAnalyticsError(access(db, scene.cast.orgUser.id, link), 'alias_not_found');
      await expectRefused(access(db, null, link));
    }));

  it('answers the live share token to every reader once shared', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const token = await share(db, scene.cast.member.id, scene.links.team.id);
      expect((await access(db, scene.cast.viewer.id, scene.links.team.id)).share_token).toBe(token);
      // A plan that lost public analytics: the token no longer works, so it is not offered.
      await db.query(
        `update public.plan_prices pp set options = options || '{"analytics_public": false}'
         where pp.id = app.account_price_id($1)`,
        [scene.cast.organization.accountId],
      );
      expect(await access(db, scene.cast.member.id, scene.links.team.id)).toMatchObject({
        can_share: false,
        share_token: null,
      });
    }));
});

describe('link_analytics_access follows the plan', () => {
  it('without download_logs there is no log download; without share_analytics no sharing', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        features: ANALYTICS_FEATURES.filter(
          (feature) => feature !== 'share_analytics' && feature !== 'download_logs',
        ),
      });
      expect(await access(db, scene.cast.teamAdmin.id, scene.links.team.id)).toMatchObject({
        periods: ALL_PERIODS,
        can_share: false,
        can_download_logs: false,
      });
    }));

  it('periods stop at analytics_period', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        options: { analytics_enabled: true, analytics_public: true, analytics_period: 'P7D' },
      });
      expect((await access(db, scene.cast.member.id, scene.links.team.id)).periods).toEqual([
        'last_1_hour',
        'last_24_hour',
        'last_7_day',
      ]);
    }));

  it('a plan without analytics offers no period, no sharing and no download', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        options: { analytics_enabled: false, analytics_public: true },
      });
      expect(await access(db, scene.cast.teamAdmin.id, scene.links.team.id)).toMatchObject({
        periods: [],
        can_share: false,
        can_download_logs: false,
      });
      // Staff are not held by the plan.
      expect((await access(db, scene.cast.staff.id, scene.links.team.id)).periods).toEqual(
        ALL_PERIODS,
      );
    }));
});
