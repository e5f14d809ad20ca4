import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  createPlan,
  createUser,
  expectCoded,
  expectDatabaseError,
  expectProtectedColumn,
  expectRefused,
  inSavepoint,
  queryAs,
  subscribe,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Plans, prices, subscriptions, billing customers, orders, invoices, coupons, usage. */
const pool = useDatabase();

const ORDER_STATUS_CODES = [0, 16, 17, 18, 19, 32, 33, 48, 49, 50, 51];

describe('plans and prices', () => {
  it('anonymous visitors read public plans and prices, not hidden ones', () =>
    withRollback(pool, async (db) => {
      const visible = await createPlan(db);
      const hidden = await createPlan(db, { hidden: true });
      const plans = await queryAs<{ id: string }>(
        db,
        null,
        `select id from public.plans where id = any ($1)`,
        [[visible.planId, hidden.planId]],
      );
      expect(plans.rows).toEqual([{ id: visible.planId }]);
      const prices = await queryAs<{ id: string }>(
        db,
        null,
        `select id from public.plan_prices where id = any ($1)`,
        [[visible.priceId, hidden.priceId]],
      );
      expect(prices.rows).toEqual([{ id: visible.priceId }]);
    }));

  it('a subscriber reads the hidden plan and price they are on', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const hidden = await createPlan(db, { hidden: true });
      await subscribe(db, { accountId: user.personalAccountId, plan: hidden });
      const plans = await queryAs(db, user.id, `select id from public.plans where id = $1`, [
        hidden.planId,
      ]);
      expect(plans.rows).toEqual([{ id: hidden.planId }]);
      const prices = await queryAs(db, user.id, `select id from public.plan_prices where id = $1`, [
        hidden.priceId,
      ]);
      expect(prices.rows).toEqual([{ id: hidden.priceId }]);
    }));

  it('staff manage plans; users and anonymous visitors cannot write them', () =>
    withRollback(pool, async (db) => {
      const { staff, owner } = await createCast(db);
      const created = await queryAs(
        db,
        staff.id,
        `insert into public.plans (name, "group") values ('staff-made', 'test')`,
      );
      expect(created.rowCount).toBe(1);
      await expectRefused(
        queryAs(db, owner.id, `insert into public.plans (name, "group") values ('mine', 'test')`),
      );
      await expectRefused(
        queryAs(db, null, `insert into public.plans (name, "group") values ('guest', 'test')`),
      );
    }));
});

describe('subscriptions by actor', () => {
  it('every member of an account sees its subscription; strangers do not', () =>
    withRollback(pool, async (db) => {
      const { team, viewer, stranger, staff } = await createCast(db);
      const plan = await createPlan(db);
      const subscription = await subscribe(db, { accountId: team.accountId, plan });
      for (const actor of [viewer, staff]) {
        const seen = await queryAs(
          db,
          actor.id,
          `select id from public.subscriptions where id = $1`,
          [subscription.id],
        );
        expect(seen.rows).toEqual([{ id: subscription.id }]);
      }
      const hidden = await queryAs(
        db,
        stranger.id,
        `select id from public.subscriptions where id = $1`,
        [subscription.id],
      );
      expect(hidden.rows).toEqual([]);
    }));

  it('derives active, free and past-due from the stored fields', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db);
      const subscription = await subscribe(db, {
        accountId: user.personalAccountId,
        plan,
        billingStatus: 'past_due',
      });
      const seen = await queryAs(
        db,
        user.id,
        `select active, is_free, is_past_due, currency, interval from public.subscriptions where id = $1`,
        [subscription.id],
      );
      expect(seen.rows).toEqual([
        { active: true, is_free: false, is_past_due: true, currency: 'USD', interval: 'yearly' },
      ]);
    }));

  it('nobody signed in writes subscriptions (edge functions do, as the service role)', () =>
    withRollback(pool, async (db) => {
      const { owner, staff } = await createCast(db);
      for (const actor of [owner, staff]) {
        await expectRefused(
          queryAs(
            db,
            actor.id,
            `insert into public.subscriptions (account_id, name) values ($1, 'pro')`,
            [actor.personalAccountId],
          ),
        );
      }
      await expectRefused(queryAs(db, null, `select id from public.subscriptions`));
    }));

  it('refuses a lower-case currency and an unknown billing type', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      for (const [currency, billingType] of [
        ['usd', 1],
        ['USD', 3],
      ]) {
        const error = await expectDatabaseError(
          inSavepoint(db, () =>
            db.query(
              `insert into public.subscriptions (account_id, name, currency, billing_type)
               values ($1, 'pro', $2, $3)`,
              [user.personalAccountId, currency, billingType],
            ),
          ),
        );
        expect(error.code).toBe('23514');
      }
    }));
});

describe('billing data by actor', () => {
  async function seedBilling(db: pg.ClientBase, accountId: string) {
    const customer = await db.query<{ id: string }>(
      `insert into public.billing_customers (account_id, billing_type, billing_id, pm_type,
         pm_last_four, pm_expiration, pm_country)
       values ($1, 1, 'cus_' || gen_random_uuid(), 'visa', '4242', '12/2030', 'US') returning id`,
      [accountId],
    );
    const order = await db.query<{ id: string }>(
      `insert into public.orders (account_id, status, amount) values ($1, 48, 1299) returning id`,
      [accountId],
    );
    const invoice = await db.query<{ id: string }>(
      `insert into public.invoices (account_id, order_id, billing_type, billing_id, amount)
       values ($1, $2, 1, 'in_' || gen_random_uuid(), 1299) returning id`,
      [accountId, order.rows[0]?.id],
    );
    return {
      customer: customer.rows[0]?.id,
      order: order.rows[0]?.id,
      invoice: invoice.rows[0]?.id,
    };
  }

  const billingQuery = `select
      (select count(*)::int from public.billing_customers where account_id = $1) as customers,
      (select count(*)::int from public.orders where account_id = $1) as orders,
      (select count(*)::int from public.invoices where account_id = $1) as invoices`;

  it('team admin (billing) reads the team billing; member and viewer do not', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, member, viewer } = await createCast(db);
      await seedBilling(db, team.accountId);
      const byAdmin = await queryAs(db, teamAdmin.id, billingQuery, [team.accountId]);
      expect(byAdmin.rows).toEqual([{ customers: 1, orders: 1, invoices: 1 }]);
      for (const actor of [member, viewer]) {
        const seen = await queryAs(db, actor.id, billingQuery, [team.accountId]);
        expect(seen.rows).toEqual([{ customers: 0, orders: 0, invoices: 0 }]);
      }
    }));

  it('organization billing: the owner and holders of subscriptions read it; a limited org user does not', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      await seedBilling(db, cast.organization.accountId);
      const byOwner = await queryAs(db, cast.owner.id, billingQuery, [cast.organization.accountId]);
      expect(byOwner.rows).toEqual([{ customers: 1, orders: 1, invoices: 1 }]);
      const byOrgUser = await queryAs(db, cast.orgUser.id, billingQuery, [
        cast.organization.accountId,
      ]);
      expect(byOrgUser.rows).toEqual([{ customers: 0, orders: 0, invoices: 0 }]);
      const billingCast = await createCast(db, { limitedPermissions: ['subscriptions'] });
      await seedBilling(db, billingCast.organization.accountId);
      const byManager = await queryAs(db, billingCast.orgUser.id, billingQuery, [
        billingCast.organization.accountId,
      ]);
      expect(byManager.rows).toEqual([{ customers: 1, orders: 1, invoices: 1 }]);
    }));

  it('a personal account owner reads their own orders; strangers and anonymous visitors do not', () =>
    withRollback(pool, async (db) => {
      const { member, stranger, staff } = await createCast(db);
      const { order } = await seedBilling(db, member.personalAccountId);
      const own = await queryAs(db, member.id, `select status from public.orders where id = $1`, [
        order,
      ]);
      expect(own.rows).toEqual([{ status: 48 }]);
      const other = await queryAs(db, stranger.id, `select id from public.orders where id = $1`, [
        order,
      ]);
      expect(other.rows).toEqual([]);
      const kiosk = await queryAs(db, staff.id, `select id from public.orders where id = $1`, [
        order,
      ]);
      expect(kiosk.rows).toEqual([{ id: order }]);
      await expectRefused(queryAs(db, null, `select id from public.orders`));
    }));

  it("accepts exactly the spec's eleven order status codes", () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      for (const status of ORDER_STATUS_CODES) {
        await db.query(`insert into public.orders (account_id, status) values ($1, $2)`, [
          user.personalAccountId,
          status,
        ]);
      }
      const error = await expectDatabaseError(
        db.query(`insert into public.orders (account_id, status) values ($1, 20)`, [
          user.personalAccountId,
        ]),
      );
      expect(error.code).toBe('23514');
    }));
});

describe('coupons', () => {
  it('anyone looks a coupon up by code; the table itself stays closed', () =>
    withRollback(pool, async (db) => {
      const { owner } = await createCast(db);
      const code = `TEST${owner.id.slice(0, 8).toUpperCase()}`;
      await db.query(
        `insert into public.coupons (code, percent_off, intervals) values ($1, 30, '{yearly}')`,
        [code],
      );
      const found = await queryAs(
        db,
        null,
        `select code, amount_off, percent_off::float as percent_off, intervals from public.find_coupon($1)`,
        [code.toLowerCase()],
      );
      expect(found.rows).toEqual([
        { code, amount_off: null, percent_off: 30, intervals: ['yearly'] },
      ]);
      const listed = await queryAs(
        db,
        owner.id,
        `select code from public.coupons where code = $1`,
        [code],
      );
      expect(listed.rows).toEqual([]);
      await expectRefused(queryAs(db, null, `select code from public.coupons`));
    }));

  it('an unknown or expired coupon is coupon_not_found', () =>
    withRollback(pool, async (db) => {
      await db.query(
        `insert into public.coupons (code, amount_off, ends_at) values ('EXPIRED-TEST', 500, now() - interval '1 day')`,
      );
      await expectCoded(
        queryAs(db, null, `select * from public.find_coupon('NOPE-NOPE')`),
        'coupon_not_found',
      );
      await expectCoded(
        queryAs(db, null, `select * from public.find_coupon('EXPIRED-TEST')`),
        'coupon_not_found',
      );
    }));

  it('a coupon has exactly one discount', () =>
    withRollback(pool, async (db) => {
      const error = await expectDatabaseError(
        db.query(
          `insert into public.coupons (code, amount_off, percent_off) values ('BOTH-TEST', 100, 10)`,
        ),
      );
      expect(error.code).toBe('23514');
    }));
});

describe('usage and limits', () => {
  async function usageRow(db: pg.ClientBase, accountId: string) {
    await db.query(
      `insert into public.account_usage (account_id, name, used) values ($1, 'max_active_aliases', 80)`,
      [accountId],
    );
  }

  it('a billing manager switches overages on; members read usage but cannot', () =>
    withRollback(pool, async (db) => {
      const { team, teamAdmin, member } = await createCast(db);
      await usageRow(db, team.accountId);
      const seen = await queryAs(
        db,
        member.id,
        `select used from public.account_usage where account_id = $1`,
        [team.accountId],
      );
      expect(seen.rows).toEqual([{ used: '80' }]);
      const byMember = await queryAs(
        db,
        member.id,
        `update public.account_usage set overage_enabled = true where account_id = $1`,
        [team.accountId],
      );
      expect(byMember.rowCount).toBe(0);
      const byAdmin = await queryAs(
        db,
        teamAdmin.id,
        `update public.account_usage set overage_enabled = true where account_id = $1`,
        [team.accountId],
      );
      expect(byAdmin.rowCount).toBe(1);
    }));

  it('the counters and the limit are protected from account holders', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await usageRow(db, user.personalAccountId);
      await expectProtectedColumn(
        queryAs(db, user.id, `update public.account_usage set used = 0 where account_id = $1`, [
          user.personalAccountId,
        ]),
        'used',
      );
      await expectProtectedColumn(
        queryAs(
          db,
          user.id,
          `update public.account_usage set "limit" = 1000000 where account_id = $1`,
          [user.personalAccountId],
        ),
        'limit',
      );
    }));

  it('staff set a limit for an account', () =>
    withRollback(pool, async (db) => {
      const { staff, member } = await createCast(db);
      await usageRow(db, member.personalAccountId);
      const set = await queryAs(
        db,
        staff.id,
        `update public.account_usage set "limit" = 500 where account_id = $1`,
        [member.personalAccountId],
      );
      expect(set.rowCount).toBe(1);
    }));
});
