import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { asActor, expectRefused, one, useDatabase, withRollback } from '../support/index.ts';
import { createAnalyticsScene, expectAnalyticsError } from '../links/analytics-fixtures.ts';

/**
 * account_analytics_access (migration 20261122002500): the periods the dashboard may ask
 * account_analytics for. It must agree with account_analytics, which decides: every period it
 * lists is answered, every other one refused, so the portal never sends a refused request.
 */
const pool = useDatabase();

const ALL_PERIODS = ['last_1_hour', 'last_24_hour', 'last_7_day', 'last_30_day'];

const access = (db: pg.ClientBase, actor: string | null, accountId: string) =>
  asActor(db, actor, (as) =>
    one<{ answer: { account_id: string; periods: string[] } }>(
      as,
      'select public.account_analytics_access($1) as answer',
      [accountId],
    ),
  ).then((row) => row.answer);

const report = (db: pg.ClientBase, actor: string, accountId: string, period: string) =>
  asActor(db, actor, (as) =>
    one(as, 'select public.account_analytics($1, $2) as report', [accountId, period]),
  );

/** Every listed period is answered; every other one is refused as the plan's. */
async function expectAgreement(db: pg.ClientBase, actor: string, accountId: string) {
  const { periods } = await access(db, actor, accountId);
  for (const period of ALL_PERIODS) {
    if (periods.includes(period)) await report(db, actor, accountId, period);
    else {
      await expectAnalyticsError(
        report(db, actor, accountId, period),
        periods.length === 0 ? 'analytics_not_allowed' : 'analytics_period_not_allowed',
      );
    }
  }
  return periods;
}

describe('account_analytics_access', () => {
  it('lists every period of a plan with full analytics, and account_analytics answers them', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const account = scene.cast.organization.accountId;
      expect(await expectAgreement(db, scene.cast.owner.id, account)).toEqual(ALL_PERIODS);
    }));

  it('stops at analytics_period, as account_analytics does', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        options: { analytics_enabled: true, analytics_public: true, analytics_period: 'P1D' },
      });
      const account = scene.cast.organization.accountId;
      expect(await expectAgreement(db, scene.cast.owner.id, account)).toEqual([
        'last_1_hour',
        'last_24_hour',
      ]);
    }));

  it('lists none for a plan without analytics (a free plan), and asks nothing refused', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db, {
        options: { analytics_enabled: false, analytics_public: false },
      });
      const account = scene.cast.organization.accountId;
      expect(await expectAgreement(db, scene.cast.owner.id, account)).toEqual([]);
      // A user's personal account on no plan at all.
      const personal = scene.cast.stranger.personalAccountId;
      expect(await expectAgreement(db, scene.cast.stranger.id, personal)).toEqual([]);
    }));

  it('refuses who may not read the account, as account_analytics does', () =>
    withRollback(pool, async (db) => {
      const scene = await createAnalyticsScene(db);
      const account = scene.cast.organization.accountId;
      await expectAnalyticsError(access(db, scene.cast.stranger.id, account), 'permission_denied');
      await expectRefused(access(db, null, account));
    }));
});
