import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  asActor,
  createCast,
  createPlan,
  createUser,
  expectCoded,
  expectDatabaseError,
  expectRefused,
  inSavepoint,
  one,
  queryAs,
  uniqueSuffix,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';
import { callCreateLink, createDomain, createLink, expectLinkError } from '../links/fixtures.ts';

/**
 * Usage periods and metered overage (migration 20261122006000): counters at the limit, at the
 * limit with overage, and at the period's reset, where the closed period's overage becomes one
 * charge.
 */
const pool = useDatabase();

const DAY = 86_400_000;
/** A moment ago: the test's transaction began before the JavaScript clock's "now". */
const justNow = () => new Date(Date.now() - 60_000);

interface Usage {
  period_starts_at: string;
  period_ends_at: string;
  overage_available: boolean;
  limits: Record<
    string,
    { used: number | null; limit: number | null; overage: boolean; over: number }
  >;
  charges: { units: number; status: string; amount: number | null }[];
}

async function paidPlan(
  db: pg.ClientBase,
  accountId: string,
  options: Record<string, number>,
  periodStartsAt: Date,
): Promise<{ id: string; billingId: string }> {
  const plan = await createPlan(db, { options, interval: 'monthly' });
  const billingId = `sub_test_${uniqueSuffix()}`;
  const row = await one<{ id: string }>(
    db,
    `insert into public.subscriptions (account_id, plan_id, price_id, type, name, billing_type,
       billing_id, interval, amount, currency, billing_status, period_starts_at, period_ends_at)
     values ($1, $2, $3, 'default', $4, 1, $5, 'monthly', 1000, 'USD', 'active', $6,
       $6::timestamptz + interval '1 month')
     returning id`,
    [accountId, plan.planId, plan.priceId, plan.name, billingId, periodStartsAt],
  );
  return { id: row.id, billingId };
}

function usageOf(db: pg.ClientBase, user: TestUser, accountId = user.personalAccountId) {
  return asActor(db, user.id, (as) =>
    one<{ usage: Usage }>(as, 'select public.account_usage($1) as usage', [accountId]),
  ).then((row) => row.usage);
}

function setOverage(db: pg.ClientBase, actor: TestUser, accountId: string, enabled: boolean) {
  return asActor(db, actor.id, (as) =>
    one<{ usage: Usage }>(as, 'select public.set_overage($1, $2) as usage', [accountId, enabled]),
  ).then((row) => row.usage);
}

function createAs(db: pg.ClientBase, user: TestUser, domain: string) {
  return asActor(db, user.id, (as) =>
    callCreateLink(as, { url: `https://example.com/${uniqueSuffix()}`, domain }),
  );
}

async function spendApi(db: pg.ClientBase, accountId: string, cost = 1): Promise<boolean> {
  const row = await one<{ ok: boolean }>(
    db,
    `select app.spend_usage($1, 'max_api_credits', $2) as ok`,
    [accountId, cost],
  );
  return row.ok;
}

/** The renewal webhook's effect: the subscription's period moves on to start now. */
async function renew(db: pg.ClientBase, subscriptionId: string): Promise<void> {
  await db.query(
    `update public.subscriptions set period_starts_at = now(),
       period_ends_at = now() + interval '1 month' where id = $1`,
    [subscriptionId],
  );
}

async function charges(db: pg.ClientBase, accountId: string) {
  return (
    await db.query<{ units: Record<string, number>; total_units: string; billing_type: number }>(
      `select units, total_units, billing_type from public.overage_charges
       where account_id = $1 order by period_starts_at`,
      [accountId],
    )
  ).rows;
}

describe('usage periods', () => {
  it('is the UTC calendar month without a paid subscription, and month windows from its start with one', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const free = await usageOf(db, user);
      const now = new Date();
      const month = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      expect(new Date(free.period_starts_at).getTime()).toBe(month);
      expect(free.overage_available).toBe(false);

      // A yearly-looking anchor 40 days back: the current window started 1 month after it.
      const anchor = new Date(Date.now() - 40 * DAY);
      await paidPlan(db, account, {}, anchor);
      const paid = await usageOf(db, user);
      const expected = new Date(anchor);
      expected.setUTCMonth(expected.getUTCMonth() + 1);
      expect(new Date(paid.period_starts_at).getTime()).toBe(expected.getTime());
      const end = new Date(anchor);
      end.setUTCMonth(end.getUTCMonth() + 2);
      expect(new Date(paid.period_ends_at).getTime()).toBe(end.getTime());
      expect(paid.overage_available).toBe(true);
    }));

  it('counts links per month from the period start, not the calendar month', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      const base = { accountId: account, createdBy: user.id, domainId: domain.id };
      await createLink(db, { ...base, createdAt: new Date(Date.now() - 3 * DAY) });
      await createLink(db, { ...base, createdAt: new Date(Date.now() - 60_000) });
      await paidPlan(db, account, { max_aliases_per_month: 1 }, new Date(Date.now() - 2 * DAY));
      const usage = await usageOf(db, user);
      expect(usage.limits.max_aliases_per_month?.used).toBe(1);
      expect(usage.limits.max_aliases?.used).toBe(2);
      // At the limit: the next link is refused.
      await expectLinkError(createAs(db, user, domain.domain), 'plan_limit_reached');
    }));
});

describe('overage', () => {
  it('may be turned on by the owner with a paid plan only; others are refused', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const user = await createUser(db);
      await expectCoded(
        setOverage(db, user, user.personalAccountId, true),
        'overage_needs_subscription',
      );
      await paidPlan(db, user.personalAccountId, { max_api_credits: 1 }, justNow());
      const usage = await setOverage(db, user, user.personalAccountId, true);
      expect(usage.limits.max_api_credits?.overage).toBe(true);
      expect(usage.limits.max_domains?.overage).toBe(false);
      await expectCoded(
        setOverage(db, cast.stranger, user.personalAccountId, false),
        'permission_denied',
      );
      // A team member without billing may not switch the team's.
      await expectCoded(
        setOverage(db, cast.member, cast.team.accountId, true),
        'permission_denied',
      );
      expect(
        (await setOverage(db, user, user.personalAccountId, false)).limits.max_api_credits,
      ).toMatchObject({ overage: false });
    }));

  it('at the limit refuses without overage and goes on with it, counting the units over', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      await paidPlan(
        db,
        account,
        { max_active_aliases: 1, max_aliases_per_month: 1, max_api_credits: 2 },
        new Date(Date.now() - DAY),
      );
      await createAs(db, user, domain.domain);
      await expectLinkError(createAs(db, user, domain.domain), 'plan_limit_reached');
      // Bulk asks how many rows fit: none.
      const capacity = async () =>
        (await one<{ n: string | null }>(db, 'select app.link_capacity($1, false) as n', [account]))
          .n;
      expect(await capacity()).toBe('0');
      expect(await spendApi(db, account, 2)).toBe(true);
      expect(await spendApi(db, account)).toBe(false);

      await setOverage(db, user, account, true);
      expect(await capacity()).toBeNull();
      await createAs(db, user, domain.domain);
      await createAs(db, user, domain.domain);
      expect(await spendApi(db, account, 3)).toBe(true);
      const usage = await usageOf(db, user);
      expect(usage.limits.max_aliases_per_month).toMatchObject({ used: 3, limit: 1, over: 2 });
      expect(usage.limits.max_active_aliases).toMatchObject({ used: 3, over: 2 });
      expect(usage.limits.max_api_credits).toMatchObject({ used: 5, limit: 2, over: 3 });
    }));

  it('at the period reset becomes one charge, and the monthly counters start again', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      const subscription = await paidPlan(
        db,
        account,
        { max_aliases_per_month: 1, max_api_credits: 1 },
        new Date(Date.now() - DAY),
      );
      await setOverage(db, user, account, true);
      await createAs(db, user, domain.domain);
      await createAs(db, user, domain.domain);
      await createAs(db, user, domain.domain);
      expect(await spendApi(db, account, 5)).toBe(true);
      // The test's transaction has one now(): the links were made before the renewal.
      await db.query(
        `update public.aliases set created_at = now() - interval '1 hour' where account_id = $1`,
        [account],
      );

      await renew(db, subscription.id);
      const [charge, ...more] = await charges(db, account);
      expect(more).toEqual([]);
      expect(charge?.units).toEqual({ max_aliases_per_month: 2, max_api_credits: 4 });
      expect(Number(charge?.total_units)).toBe(6);
      expect(charge?.billing_type).toBe(1);

      const usage = await usageOf(db, user);
      expect(usage.limits.max_api_credits?.used).toBe(0);
      expect(usage.limits.max_aliases_per_month?.used).toBe(0);
      expect(usage.charges).toMatchObject([{ units: 6, status: 'pending', amount: null }]);
      // Rolling again (the cron job, another webhook) closes nothing twice.
      await db.query('select app.roll_usage_period($1)', [account]);
      await db.query(
        `update public.subscriptions set billing_status = 'active', amount = 1001 where id = $1`,
        [subscription.id],
      );
      expect(await charges(db, account)).toHaveLength(1);
    }));

  it('resets a free account at the calendar month, by the cron job, without any charge', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const plan = await createPlan(db, { options: { max_api_credits: 10 } });
      await db.query(
        `insert into public.subscriptions (account_id, plan_id, price_id, name)
         values ($1, $2, $3, $4)`,
        [account, plan.planId, plan.priceId, plan.name],
      );
      expect(await spendApi(db, account, 7)).toBe(true);
      // The stored period ran out (as it does at the 1st): the job rolls it.
      await db.query(
        `update app.usage_periods set starts_at = starts_at - interval '1 month',
           ends_at = starts_at where account_id = $1`,
        [account],
      );
      const rolled = await one<{ n: number }>(db, 'select app.roll_usage_periods() as n');
      expect(rolled.n).toBeGreaterThanOrEqual(1);
      expect((await usageOf(db, user)).limits.max_api_credits?.used).toBe(0);
      expect(await charges(db, account)).toEqual([]);
    }));

  it('starts a new period when a subscription starts, and switches overage off when it ends', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const plan = await createPlan(db, { options: { max_api_credits: 10 } });
      await db.query(
        `insert into public.subscriptions (account_id, plan_id, price_id, name)
         values ($1, $2, $3, $4)`,
        [account, plan.planId, plan.priceId, plan.name],
      );
      expect(await spendApi(db, account, 4)).toBe(true);
      const subscription = await paidPlan(db, account, { max_api_credits: 10 }, justNow());
      const usage = await usageOf(db, user);
      expect(usage.limits.max_api_credits?.used).toBe(0);
      expect(Math.abs(new Date(usage.period_starts_at).getTime() - Date.now())).toBeLessThan(
        120_000,
      );
      await setOverage(db, user, account, true);
      await db.query(`update public.subscriptions set ends_at = now() where id = $1`, [
        subscription.id,
      ]);
      const after = await usageOf(db, user);
      expect(after.overage_available).toBe(false);
      expect(after.limits.max_api_credits?.overage).toBe(false);
    }));

  it('lets redirects and trackable clicks go past the limit with overage', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const domain = await createDomain(db);
      await paidPlan(db, account, { max_redirects: 1, max_trackable_clicks: 1 }, justNow());
      const link = await createLink(db, {
        accountId: account,
        createdBy: user.id,
        domainId: domain.id,
      });
      const click = {
        time: new Date().toISOString(),
        alias_id: link.id,
        route_id: null,
        country: 'SE',
        device: 'mobile',
        browser: 'Chrome',
        os: 'Android',
        referrer_host: null,
        is_bot: false,
        is_qr: false,
        ip_hash: '0f'.repeat(32),
      };
      const record = async () =>
        (
          await db.query<{ redirects_blocked: boolean }>(
            'select * from app.record_clicks($1::json)',
            [JSON.stringify([click, click])],
          )
        ).rows[0]?.redirects_blocked;
      expect(await record()).toBe(true);
      await setOverage(db, user, account, true);
      expect(await record()).toBe(false);
      const usage = await usageOf(db, user);
      expect(usage.limits.max_redirects).toMatchObject({ used: 4, over: 3 });
      expect(usage.limits.max_trackable_clicks).toMatchObject({ used: 3, over: 2 });
    }));

  it('is claimed by one reporter at a time, recorded once, and failed after the last attempt', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const subscription = await paidPlan(db, account, { max_api_credits: 1 }, justNow());
      await setOverage(db, user, account, true);
      expect(await spendApi(db, account, 3)).toBe(true);
      await renew(db, subscription.id);
      await db.query(`update app.overage_settings set max_attempts = 2, retry_base_seconds = 60`);
      const claim = async () =>
        (
          await db.query<{ id: string; total_units: string }>(
            'select id, total_units from app.claim_overage_charges(10) where account_id = $1',
            [account],
          )
        ).rows;
      const [claimed] = await claim();
      expect(Number(claimed?.total_units)).toBe(2);
      // Claimed: pushed back by the retry delay, so a second run does not report it again.
      expect(await claim()).toEqual([]);
      await db.query(`select app.record_overage_report($1, 4, null, 'provider down')`, [
        claimed!.id,
      ]);
      const status = async () =>
        await one<{ status: string; attempts: number; amount: string | null }>(
          db,
          'select status, attempts, amount from public.overage_charges where id = $1',
          [claimed!.id],
        );
      expect(await status()).toMatchObject({ status: 'pending', attempts: 1 });
      await db.query(`update public.overage_charges set next_attempt_at = now() where id = $1`, [
        claimed!.id,
      ]);
      expect(await claim()).toHaveLength(1);
      await db.query(`select app.record_overage_report($1, 4, null, 'provider down')`, [
        claimed!.id,
      ]);
      expect(await status()).toMatchObject({ status: 'failed', attempts: 2 });
      // A late success of a failed charge changes nothing; a pending one is recorded once.
      await db.query(`select app.record_overage_report($1, 4, 'ii_1', null)`, [claimed!.id]);
      expect((await status()).status).toBe('failed');
    }));

  it('remembers that the provider was asked (20261122007220): a retry knows to look first', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const account = user.personalAccountId;
      const subscription = await paidPlan(db, account, { max_api_credits: 1 }, justNow());
      await setOverage(db, user, account, true);
      expect(await spendApi(db, account, 3)).toBe(true);
      await renew(db, subscription.id);
      const [claimed] = (
        await db.query<{ id: string }>(
          'select id from app.claim_overage_charges(10) where account_id = $1',
          [account],
        )
      ).rows;
      const begin = async () =>
        (
          await one<{ retry: boolean }>(db, 'select app.begin_overage_report($1) as retry', [
            claimed!.id,
          ])
        ).retry;
      expect(await begin()).toBe(false);
      expect(await begin()).toBe(true);
      // Staff read it like the rest of the charge; a signed-in user cannot call the function.
      const staff = await createUser(db, { developer: true });
      const seen = await queryAs(
        db,
        staff.id,
        'select provider_requested_at is not null as asked from public.overage_charges where id = $1',
        [claimed!.id],
      );
      expect(seen.rows).toEqual([{ asked: true }]);
      await inSavepoint(db, () =>
        expectRefused(queryAs(db, user.id, 'select app.begin_overage_report($1)', [claimed!.id])),
      );
      // Recorded as reported, the charge is nobody's to ask for again.
      await db.query(`select app.record_overage_report($1, 4, 'sub_1', null)`, [claimed!.id]);
      await db.query('savepoint reported');
      const refused = await expectDatabaseError(
        db.query('select app.begin_overage_report($1)', [claimed!.id]),
      );
      await db.query('rollback to savepoint reported');
      expect(refused.code).toBe('22023');
    }));
});
