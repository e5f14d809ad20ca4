import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createCast,
  expectRefused,
  inSavepoint,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type Cast,
} from '../support/index.ts';

/**
 * Refunds of Paddle orders (20261122007200_paddle_refund_adjustments.sql): a Paddle plan payment
 * is an order like a Stripe one; a full refund adjustment's state lands on its order in the
 * adjustment's own updatedAt order (pending, then approved → 51, or rejected → still paid); a
 * refunded invoice refunds whatever order it belongs to. Who reads the refund state, by actor.
 */
const pool = useDatabase();

/** A Paddle transaction of `accountId` as app.apply_paddle_transaction stores it. */
async function paddleInvoice(db: pg.ClientBase, accountId: string, status = 'paid') {
  const row = await db.query<{ billing_id: string }>(
    `insert into public.invoices (account_id, billing_type, billing_id, number, amount, currency,
       status)
     values ($1, 2, 'txn_' || replace(gen_random_uuid()::text, '-', ''), 'PDL-0001', 12900,
       'USD', $2)
     returning billing_id`,
    [accountId, status],
  );
  return row.rows[0]!.billing_id;
}

const orderOf = (db: pg.ClientBase, transaction: string) =>
  one<{ status: number; refund_id: string | null; refund_status: string | null }>(
    db,
    `select status, refund_id, refund_status from public.orders
     where billing_type = 2 and billing_id = $1`,
    [transaction],
  );

/** A refund adjustment as the SDK shapes it (Paddle's fields in camelCase). */
const adjustment = (
  transaction: string,
  status: string,
  updatedAt: Date,
  extra: { id?: string; type?: string; action?: string } = {},
) => ({
  id: extra.id ?? 'adj_01paddlerefundtest0000000000',
  action: extra.action ?? 'refund',
  type: extra.type ?? 'full',
  transactionId: transaction,
  status,
  reason: 'kiosk',
  createdAt: updatedAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
});

const apply = async (db: pg.ClientBase, value: unknown) =>
  (
    await one<{ result: string }>(db, `select app.apply_paddle_adjustment($1) as result`, [
      JSON.stringify(value),
    ])
  ).result;

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, seconds));

describe('Paddle payments are orders', () => {
  it('a paid transaction is a paid order with its item; an open one is no order yet', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const paid = await paddleInvoice(db, cast.owner.personalAccountId);
      expect(await orderOf(db, paid)).toMatchObject({ status: 48, refund_status: null });
      const items = await db.query(
        `select i.kind, i.amount::int from public.order_items i
         join public.orders o on o.id = i.order_id where o.billing_id = $1`,
        [paid],
      );
      expect(items.rows).toEqual([{ kind: 'subscription', amount: 12900 }]);
      const billed = await paddleInvoice(db, cast.owner.personalAccountId, 'open');
      const none = await db.query(`select 1 from public.orders where billing_id = $1`, [billed]);
      expect(none.rowCount).toBe(0);
    }));

  it('a refunded invoice refunds the order it belongs to, whatever made the order', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const order = await one<{ id: string }>(
        db,
        `insert into public.orders (account_id, status, billing_type, billing_id, amount,
           currency, purchase_source)
         values ($1, 48, 1, 'cs_domainordertest', 12900, 'USD', 'domain-purchase') returning id`,
        [cast.owner.personalAccountId],
      );
      const invoice = await one<{ id: string }>(
        db,
        `insert into public.invoices (account_id, billing_type, billing_id, amount, currency,
           status, order_id)
         values ($1, 1, 'in_domainordertest', 12900, 'USD', 'paid', $2) returning id`,
        [cast.owner.personalAccountId, order.id],
      );
      await db.query(`update public.invoices set status = 'refunded' where id = $1`, [invoice.id]);
      const after = await one<{ status: number }>(
        db,
        `select status from public.orders where id = $1`,
        [order.id],
      );
      expect(after.status).toBe(51);
    }));
});

describe('Paddle refund adjustments on orders', () => {
  it('pending, then approved: refunded (51); an older notification changes nothing', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const txn = await paddleInvoice(db, cast.owner.personalAccountId);
      expect(await apply(db, adjustment(txn, 'pending_approval', at(1)))).toBe('applied');
      expect(await orderOf(db, txn)).toMatchObject({
        status: 48,
        refund_status: 'pending_approval',
      });
      expect(await apply(db, adjustment(txn, 'approved', at(2)))).toBe('applied');
      expect(await orderOf(db, txn)).toMatchObject({ status: 51, refund_status: 'approved' });
      const invoice = await one<{ status: string }>(
        db,
        `select status from public.invoices where billing_id = $1`,
        [txn],
      );
      expect(invoice.status).toBe('refunded');
      // The created notification arriving last, and the approval again.
      expect(await apply(db, adjustment(txn, 'pending_approval', at(1)))).toBe('stale');
      expect(await apply(db, adjustment(txn, 'approved', at(2)))).toBe('stale');
      expect(await orderOf(db, txn)).toMatchObject({ status: 51, refund_status: 'approved' });
    }));

  it('rejected: the order stays paid and says so; a later refund can be asked', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const txn = await paddleInvoice(db, cast.owner.personalAccountId);
      await apply(db, adjustment(txn, 'pending_approval', at(1)));
      expect(await apply(db, adjustment(txn, 'rejected', at(2)))).toBe('applied');
      expect(await orderOf(db, txn)).toMatchObject({ status: 48, refund_status: 'rejected' });
      const second = { id: 'adj_01paddlerefundtestsecond0000' };
      expect(await apply(db, adjustment(txn, 'pending_approval', at(3), second))).toBe('applied');
      expect(await apply(db, adjustment(txn, 'approved', at(4), second))).toBe('applied');
      expect(await orderOf(db, txn)).toMatchObject({
        status: 51,
        refund_id: second.id,
        refund_status: 'approved',
      });
    }));

  it('partial refunds, credits and other transactions leave orders alone', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const txn = await paddleInvoice(db, cast.owner.personalAccountId);
      expect(await apply(db, adjustment(txn, 'approved', at(1), { type: 'partial' }))).toBe(
        'ignored',
      );
      expect(await apply(db, adjustment(txn, 'approved', at(1), { action: 'credit' }))).toBe(
        'ignored',
      );
      expect(await apply(db, adjustment('txn_notours', 'approved', at(1)))).toBe('ignored');
      expect(await orderOf(db, txn)).toMatchObject({ status: 48, refund_status: null });
    }));

  it('app.record_paddle_event applies an adjustment notification once', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const txn = await paddleInvoice(db, cast.owner.personalAccountId);
      const entity = adjustment(txn, 'approved', at(2));
      const event = {
        event_id: `evt_${crypto.randomUUID().replaceAll('-', '').slice(0, 26)}`,
        event_type: 'adjustment.updated',
        occurred_at: at(2).toISOString(),
        notification_id: 'ntf_01paddlerefundtest0000000000',
        data: entity,
      };
      const record = async () =>
        (
          await one<{ result: string }>(db, `select app.record_paddle_event($1, $2) as result`, [
            JSON.stringify(event),
            JSON.stringify(entity),
          ])
        ).result;
      expect(await record()).toBe('applied');
      for (let i = 0; i < 4; i += 1) expect(await record()).toBe('duplicate');
      expect(await orderOf(db, txn)).toMatchObject({ status: 51, refund_status: 'approved' });
    }));
});

type Who = keyof Pick<
  Cast,
  'owner' | 'orgUser' | 'teamAdmin' | 'member' | 'viewer' | 'stranger' | 'staff'
>;

describe('the refund state by actor', () => {
  it.each<[string, 'team' | 'organization', Who, boolean]>([
    ['the organization owner', 'organization', 'owner', true],
    ['an org user with the subscriptions permission', 'organization', 'orgUser', true],
    ['a team admin', 'team', 'teamAdmin', true],
    ['a team member', 'team', 'member', false],
    ['a team viewer', 'team', 'viewer', false],
    ['a stranger', 'organization', 'stranger', false],
    ['staff', 'team', 'staff', true],
  ])('%s reads the %s account’s pending refund: %s', (_who, scope, who, reads) =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db, { limitedPermissions: ['subscriptions'] });
      const accountId = scope === 'team' ? cast.team.accountId : cast.organization.accountId;
      const txn = await paddleInvoice(db, accountId);
      await apply(db, adjustment(txn, 'pending_approval', at(1)));
      const rows = await queryAs(
        db,
        cast[who].id,
        `select status, refund_status from public.orders where billing_id = $1`,
        [txn],
      );
      expect(rows.rows).toEqual(reads ? [{ status: 48, refund_status: 'pending_approval' }] : []);
    }),
  );

  it('nobody signed in sets a refund state, not even staff; nor calls the applier', () =>
    withRollback(pool, async (db) => {
      const cast = await createCast(db);
      const txn = await paddleInvoice(db, cast.owner.personalAccountId);
      for (const actor of [cast.owner, cast.staff]) {
        await inSavepoint(db, async () => {
          await expectRefused(
            queryAs(
              db,
              actor.id,
              `update public.orders set refund_id = 'adj_x', refund_status = 'approved'
               where billing_id = $1`,
              [txn],
            ),
          );
        });
        await inSavepoint(db, async () => {
          await expectRefused(
            queryAs(db, actor.id, `select app.apply_paddle_adjustment($1)`, [
              JSON.stringify(adjustment(txn, 'approved', at(1))),
            ]),
          );
        });
      }
      expect(await orderOf(db, txn)).toMatchObject({ status: 48, refund_status: null });
    }));
});
