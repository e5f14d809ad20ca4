import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createPlan,
  createUser,
  createUsers,
  expectDatabaseError,
  one,
  subscribe,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** app.account_has_feature, app.account_limit, app.is_verified and app.is_subscribed. */
const pool = useDatabase();
const DAY_MS = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

async function hasFeature(db: pg.ClientBase, accountId: string, feature: string) {
  const row = await one<{ ok: boolean }>(db, `select app.account_has_feature($1, $2) as ok`, [
    accountId,
    feature,
  ]);
  return row.ok;
}

async function limit(db: pg.ClientBase, accountId: string, option: string) {
  const row = await one<{ value: string | null }>(db, `select app.account_limit($1, $2) as value`, [
    accountId,
    option,
  ]);
  return row.value === null ? null : Number(row.value);
}

describe('account features', () => {
  it("come from the current subscription's price", () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db, { features: ['use_tags', 'manage_expiration'] });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      expect(await hasFeature(db, user.personalAccountId, 'use_tags')).toBe(true);
      expect(await hasFeature(db, user.personalAccountId, 'use_bulk')).toBe(false);
    }));

  it("fall back to the free plan's price without a subscription", () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const free = await one<{ features: string[] }>(
        db,
        `select pp.features from public.plan_prices pp join public.plans p on p.id = pp.plan_id
         where p.name = 'free' and pp.active order by pp.interval = 'yearly' desc limit 1`,
      );
      expect(free.features.length).toBeGreaterThan(0);
      for (const feature of free.features) {
        expect(await hasFeature(db, user.personalAccountId, feature)).toBe(true);
      }
      expect(await hasFeature(db, user.personalAccountId, 'use_bulk')).toBe(false);
    }));

  it("add the account's own feature list", () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await db.query(`update public.accounts set features = '{use_bulk}' where id = $1`, [
        user.personalAccountId,
      ]);
      expect(await hasFeature(db, user.personalAccountId, 'use_bulk')).toBe(true);
    }));

  it('count a subscription in its grace period, not an ended or a future one', () =>
    withRollback(pool, async (db) => {
      const [grace, ended, future] = await createUsers(db, [{}, {}, {}]);
      const plan = await createPlan(db, { features: ['use_tags'] });
      await subscribe(db, { accountId: grace.personalAccountId, plan, endsAt: daysFromNow(3) });
      await subscribe(db, { accountId: ended.personalAccountId, plan, endsAt: daysFromNow(-1) });
      await subscribe(db, {
        accountId: future.personalAccountId,
        plan,
        periodStartsAt: daysFromNow(10),
      });
      expect(await hasFeature(db, grace.personalAccountId, 'use_tags')).toBe(true);
      expect(await hasFeature(db, ended.personalAccountId, 'use_tags')).toBe(false);
      expect(await hasFeature(db, future.personalAccountId, 'use_tags')).toBe(false);
    }));

  it("for a team inside an organization include the organization's plan and features", () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const plan = await createPlan(db, { features: ['use_tags'] });
      await subscribe(db, { accountId: cast.organization.accountId, plan });
      await db.query(`update public.accounts set features = '{redirect_routes}' where id = $1`, [
        cast.organization.accountId,
      ]);
      expect(await hasFeature(db, cast.team.accountId, 'use_tags')).toBe(true);
      expect(await hasFeature(db, cast.team.accountId, 'redirect_routes')).toBe(true);
      expect(await hasFeature(db, cast.team.accountId, 'use_bulk')).toBe(false);
    }));

  it('reject an unknown feature name', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const error = await expectDatabaseError(
        asActor(db, user.id, (as) => hasFeature(as, user.personalAccountId, 'teleport')),
      );
      expect(error.code).toBe('22023');
    }));
});

describe('account limits', () => {
  it('read the plan option; an absent or null option is unlimited', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db, {
        options: { max_active_aliases: 250, max_aliases: null, alias_lifetime: 'P90D' },
      });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      expect(await limit(db, user.personalAccountId, 'max_active_aliases')).toBe(250);
      expect(await limit(db, user.personalAccountId, 'max_aliases')).toBeNull();
      expect(await limit(db, user.personalAccountId, 'max_trackable_clicks')).toBeNull();
    }));

  it('prefer a limit staff set on the account', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db, { options: { max_active_aliases: 250 } });
      await subscribe(db, { accountId: user.personalAccountId, plan });
      await db.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'max_active_aliases', 900)`,
        [user.personalAccountId],
      );
      expect(await limit(db, user.personalAccountId, 'max_active_aliases')).toBe(900);
    }));

  it('refuse options that are not counts, and unknown names', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      for (const option of ['alias_lifetime', 'max_everything']) {
        const error = await expectDatabaseError(
          asActor(db, user.id, (as) => limit(as, user.personalAccountId, option)),
        );
        expect(error.code).toBe('22023');
      }
    }));
});

describe('plan options are validated when a price is written', () => {
  it.each([
    ['an unknown option', { max_everything: 1 }],
    ['a negative count', { max_active_aliases: -1 }],
    ['a fractional count', { max_active_aliases: 1.5 }],
    ['a count given as text', { max_active_aliases: '100' }],
    ['a flag that is not a boolean', { analytics_enabled: 'yes' }],
    ['a duration that is not ISO 8601', { alias_lifetime: '90 days' }],
  ])('refuses %s', (_label, options) =>
    withRollback(pool, async (db) => {
      const error = await expectDatabaseError(createPlan(db, { options }));
      expect(error.code).toBe('23514');
    }),
  );

  it("accepts the spec's Enterprise options", () =>
    withRollback(pool, async (db) => {
      const plan = await createPlan(db, {
        options: {
          max_redirects: 5_000_000,
          max_aliases: 15_000_000,
          alias_lifetime: 'P90D',
          analytics_period: 'P2Y',
          analytics_enabled: true,
          discounted_domain_count: 3,
        },
      });
      expect(plan.priceId).toMatch(/^[0-9a-f-]{36}$/);
    }));
});

describe('users', () => {
  it('is_verified follows the confirmed e-mail', () =>
    withRollback(pool, async (db) => {
      const confirmed = await createUser(db);
      const unconfirmed = await createUser(db, { confirmed: false });
      const row = await asActor(db, confirmed.id, (as) =>
        one<{ a: boolean; b: boolean }>(
          as,
          `select app.is_verified($1) as a, app.is_verified($2) as b`,
          [confirmed.id, unconfirmed.id],
        ),
      );
      expect(row).toEqual({ a: true, b: false });
    }));

  it('is_subscribed needs a current, non-free default subscription', () =>
    withRollback(pool, async (db) => {
      const [paid, free, ended, none] = await createUsers(db, [{}, {}, {}, {}]);
      const plan = await createPlan(db);
      const freePlan = await one<{ planId: string; priceId: string; name: string }>(
        db,
        `select p.id as "planId", pp.id as "priceId", p.name from public.plans p
         join public.plan_prices pp on pp.plan_id = p.id where p.name = 'free' limit 1`,
      );
      await subscribe(db, { accountId: paid.personalAccountId, plan });
      await subscribe(db, { accountId: free.personalAccountId, plan: freePlan });
      await subscribe(db, { accountId: ended.personalAccountId, plan, endsAt: daysFromNow(-1) });
      const result = await one<Record<string, boolean>>(
        db,
        `select app.is_subscribed($1) as paid, app.is_subscribed($2) as free,
           app.is_subscribed($3) as ended, app.is_subscribed($4) as none`,
        [paid.id, free.id, ended.id, none.id],
      );
      expect(result).toEqual({ paid: true, free: false, ended: false, none: false });
    }));
});
