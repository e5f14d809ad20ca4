import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  expectRefused,
  inSavepoint,
  queryAs,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * Invoices, the orders kept from them and their items, by actor; the invoice → order trigger
 * (20261122004800_billing_documents.sql); the card and refund appliers.
 */
const pool = useDatabase();

/** A Stripe invoice of `accountId` as app.apply_stripe_invoice stores it; its order follows. */
async function invoice(db: pg.ClientBase, accountId: string, status = 'paid', amount = 12900) {
  const row = await db.query<{ id: string; billing_id: string }>(
    `insert into public.invoices (account_id, billing_type, billing_id, number, amount, currency,
       status)
     values ($1, 1, 'in_' || replace(gen_random_uuid()::text, '-', ''), 'SBX-0001', $2, 'USD', $3)
     returning id, billing_id`,
    [accountId, amount, status],
  );
  return row.rows[0]!;
}

const seen = `select
    (select count(*)::int from public.invoices where account_id = $1) as invoices,
    (select count(*)::int from public.orders where account_id = $1) as orders,
    (select count(*)::int from public.order_items i
       join public.orders o on o.id = i.order_id where o.account_id = $1) as items`;

type Who = keyof Pick<
  Cast,
  'owner' | 'orgUser' | 'teamAdmin' | 'member' | 'viewer' | 'stranger' | 'staff'
>;

describe('invoices and orders by actor', () => {
  it.each<[string, 'team' | 'organization', Who, boolean]>([
    ['the organization owner', 'organization', 'owner', true],
    ['an org user with the subscriptions permission', 'organization', 'orgUser', true],
    ['a team admin', 'team', 'teamAdmin', true],
    ['a team member', 'team', 'member', false],
    ['a team viewer', 'team', 'viewer', false],
    ['a stranger', 'organization', 'stranger', false],
    ['a stranger', 'team', 'stranger', false],
    ['staff', 'organization', 'staff', true],
    ['staff', 'team', 'staff', true],
  ])('%s reads the %s account’s: %s', (_who, scope, who, reads) =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['subscriptions'] });
      const accountId = scope === 'team' ? cast.team.accountId : cast.organization.accountId;
      await invoice(db, accountId);
      const rows = await queryAs(db, cast[who].id, seen, [accountId]);
      expect(rows.rows).toEqual([
        reads ? { invoices: 1, orders: 1, items: 1 } : { invoices: 0, orders: 0, items: 0 },
      ]);
    }),
  );

  it('an org user without the subscriptions permission reads none of it', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['domains'] });
      await invoice(db, cast.organization.accountId);
      const rows = await queryAs(db, cast.orgUser.id, seen, [cast.organization.accountId]);
      expect(rows.rows).toEqual([{ invoices: 0, orders: 0, items: 0 }]);
    }));

  it('nobody signed in writes invoices, orders or items, not even staff', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const { id } = await invoice(db, cast.owner.personalAccountId);
      for (const actor of [cast.owner, cast.staff]) {
        await inSavepoint(db, async () => {
          await expectRefused(
            queryAs(db, actor.id, `update public.invoices set status = 'void' where id = $1`, [id]),
          );
        });
        await inSavepoint(db, async () => {
          await expectRefused(
            queryAs(db, actor.id, `update public.orders set status = 51 where account_id = $1`, [
              cast.owner.personalAccountId,
            ]),
          );
        });
      }
      await expectRefused(queryAs(db, null, `select id from public.invoices`));
    }));
});

describe('orders kept from invoices', () => {
  async function orderOf(db: pg.ClientBase, billingId: string) {
    const rows = await db.query<{ status: number; amount: string; items: string[] }>(
      `select o.status, o.amount::text,
         array(select description from public.order_items i where i.order_id = o.id) as items
       from public.orders o where o.billing_type = 1 and o.billing_id = $1`,
      [billingId],
    );
    return rows.rows;
  }

  it('paid is 48, a failed payment 50, void 49, refunded 51 — one order per invoice', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const account = cast.owner.personalAccountId;
      const failed = await invoice(db, account, 'open');
      expect(await orderOf(db, failed.billing_id)).toEqual([
        { status: 50, amount: '12900', items: ['Subscription'] },
      ]);
      await db.query(`update public.invoices set status = 'paid' where id = $1`, [failed.id]);
      await db.query(`update public.invoices set status = 'paid' where id = $1`, [failed.id]);
      expect(await orderOf(db, failed.billing_id)).toEqual([
        { status: 48, amount: '12900', items: ['Subscription'] },
      ]);
      const voided = await invoice(db, account, 'void');
      expect((await orderOf(db, voided.billing_id))[0]!.status).toBe(49);
      const linked = await db.query(`select order_id from public.invoices where id = $1`, [
        failed.id,
      ]);
      expect(linked.rows[0]!.order_id).not.toBeNull();
    }));

  it('a refund is kept: a later sync of the paid invoice does not take it back', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const paid = await invoice(db, cast.owner.personalAccountId);
      const refund = { object: 'refund', invoice: paid.billing_id, refunded: true };
      const applied = await db.query(`select app.apply_stripe_refund($1, now()) as result`, [
        refund,
      ]);
      expect(applied.rows[0]!.result).toBe('applied');
      const again = await db.query(`select app.apply_stripe_refund($1, now()) as result`, [refund]);
      expect(again.rows[0]!.result).toBe('ignored');
      await db.query(`update public.invoices set status = 'paid' where id = $1`, [paid.id]);
      const row = await db.query(`select status from public.invoices where id = $1`, [paid.id]);
      expect(row.rows[0]!.status).toBe('refunded');
      expect((await orderOf(db, paid.billing_id))[0]!.status).toBe(51);
      const partial = await db.query(`select app.apply_stripe_refund($1, now()) as result`, [
        { ...refund, refunded: false },
      ]);
      expect(partial.rows[0]!.result).toBe('ignored');
    }));

  it('a free invoice (a trial’s) makes no order', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const free = await invoice(db, cast.owner.personalAccountId, 'paid', 0);
      expect(await orderOf(db, free.billing_id)).toEqual([]);
    }));
});

describe('the card on file', () => {
  it('is applied from the payment method, and an older event leaves a newer card', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const customer = `cus_${Date.now()}`;
      await db.query(
        `insert into public.billing_customers (account_id, billing_type, billing_id)
         values ($1, 1, $2)`,
        [cast.owner.personalAccountId, customer],
      );
      const method = (last4: string) => ({
        object: 'payment_method',
        customer,
        card: { brand: 'visa', last4, exp_month: 3, exp_year: 2031, country: 'us' },
      });
      const apply = async (last4: string, at: string) =>
        (
          await db.query(`select app.apply_stripe_payment_method($1, $2) as result`, [
            method(last4),
            at,
          ])
        ).rows[0]!.result as string;
      expect(await apply('1111', '2026-11-27T10:00:00Z')).toBe('applied');
      expect(await apply('2222', '2026-11-27T09:00:00Z')).toBe('stale');
      const row = await db.query(
        `select pm_type, pm_last_four, pm_expiration, pm_country from public.billing_customers
         where billing_id = $1`,
        [customer],
      );
      expect(row.rows).toEqual([
        { pm_type: 'visa', pm_last_four: '1111', pm_expiration: '03/2031', pm_country: 'US' },
      ]);
      expect(
        (
          await db.query(`select app.apply_stripe_payment_method($1, now()) as result`, [
            { ...method('3333'), customer: 'cus_unknown' },
          ])
        ).rows[0]!.result,
      ).toBe('ignored');
      await expectRefused(
        queryAs(db, cast.owner.id, `select app.apply_stripe_payment_method('{}', now())`),
      );
    }));
});
