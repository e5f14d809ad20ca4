import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createUser,
  expectDatabaseError,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
  type TestUser,
} from '../support/index.ts';

/**
 * The domain cart and domain orders by actor (20261122005700_domain_purchase.sql): the owner,
 * another user and staff; prices from the database only; the plan's discounted_domain_count;
 * an order made from the cart, paid by the provider's event, and its names; a paid name that is
 * not registered owes its refund (20261122006500); the cart read needs a base common domain
 * (20261122006510).
 */
const pool = useDatabase();

async function cartOf(db: pg.ClientBase, user: TestUser): Promise<string> {
  return (
    await one<{ id: string }>(
      db,
      `insert into public.shopping_carts (user_id) values ($1) returning id`,
      [user.id],
    )
  ).id;
}

async function people(db: pg.ClientBase) {
  return {
    owner: await createUser(db),
    other: await createUser(db),
    staff: await createUser(db, { developer: true }),
  };
}

const name = (tld = 'com') => `t${crypto.randomUUID().slice(0, 8)}.${tld}`;

describe('the cart by actor', () => {
  it('the owner fills their cart; the price comes from tld_prices, whatever is sent', () =>
    withRollback(pool, async (db) => {
      const { owner } = await people(db);
      const cart = await queryAs<{ id: string }>(
        db,
        owner,
        `insert into public.shopping_carts default values returning id`,
      );
      const domain = name();
      const item = await queryAs<{ amount: string; currency: string }>(
        db,
        owner,
        `insert into public.cart_items (cart_id, domain, years, amount, currency)
         values ($1, $2, 3, 1, 'EUR') returning amount::text, currency`,
        [cart.rows[0]!.id, domain],
      );
      expect(item.rows[0]).toEqual({ amount: String(1299 * 3), currency: 'USD' });
      const summary = await queryAs<{ cart: { total: number; items: { domain: string }[] } }>(
        db,
        owner,
        `select public.shopping_cart() as cart`,
      );
      expect(summary.rows[0]!.cart.total).toBe(1299 * 3);
      expect(summary.rows[0]!.cart.items.map((i) => i.domain)).toEqual([domain]);
    }));

  it('the cart refresh without a base common domain: Permission denied (403)', () =>
    withRollback(pool, async (db) => {
      const { owner } = await people(db);
      await cartOf(db, owner);
      await db.query(`update public.domains set is_disabled = true where is_base`);
      const refused = await expectDatabaseError(
        queryAs(db, owner, `select public.shopping_cart() as cart`),
      );
      expect(refused.code).toBe('PT403');
      expect(refused.detail).toBe('Permission denied');
    }));

  it('an extension we do not sell is refused', () =>
    withRollback(pool, async (db) => {
      const { owner } = await people(db);
      const cart = await cartOf(db, owner);
      const error = await expectDatabaseError(
        queryAs(db, owner, `insert into public.cart_items (cart_id, domain) values ($1, $2)`, [
          cart,
          name('zz'),
        ]),
      );
      expect(error.message).toBe('tld_not_available');
    }));

  it('another user neither sees nor changes the cart; staff read it only', () =>
    withRollback(pool, async (db) => {
      const { owner, other, staff } = await people(db);
      const cart = await cartOf(db, owner);
      await db.query(`insert into public.cart_items (cart_id, domain) values ($1, $2)`, [
        cart,
        name(),
      ]);
      const read = `select (select count(*)::int from public.cart_items where cart_id = $1) as n`;
      expect((await queryAs(db, other, read, [cart])).rows[0]).toEqual({ n: 0 });
      expect((await queryAs(db, staff, read, [cart])).rows[0]).toEqual({ n: 1 });
      expect((await queryAs(db, owner, read, [cart])).rows[0]).toEqual({ n: 1 });
      for (const who of [other, staff]) {
        const changed = await queryAs(db, who, `delete from public.cart_items where cart_id = $1`, [
          cart,
        ]);
        expect(changed.rowCount).toBe(0);
        await expectRefused(
          queryAs(db, who, `insert into public.cart_items (cart_id, domain) values ($1, $2)`, [
            cart,
            name(),
          ]),
        );
      }
      const theirs = await queryAs<{ cart: { items: unknown[] } }>(
        db,
        other,
        `select public.shopping_cart() as cart`,
      );
      expect(theirs.rows[0]!.cart.items).toEqual([]);
    }));

  it('the plan’s discounted_domain_count waives the overprice of the first names, first year', () =>
    withRollback(pool, async (db) => {
      const { owner } = await people(db);
      await db.query(
        `insert into public.account_usage (account_id, name, "limit") values ($1, 'discounted_domain_count', 1)`,
        [owner.personalAccountId],
      );
      const cart = await cartOf(db, owner);
      for (const domain of [name(), name()])
        await db.query(
          `insert into public.cart_items (cart_id, domain, years) values ($1, $2, 2)`,
          [cart, domain],
        );
      const summary = await queryAs<{
        cart: { total: number; discounts_left: number; items: { discount: number }[] };
      }>(db, owner, `select public.shopping_cart() as cart`);
      const { cart: shown } = summary.rows[0]!;
      expect(shown.discounts_left).toBe(1);
      // .com: cost 10.99 + overprice 2.00; the first line's first year at cost.
      expect(shown.items.map((i) => i.discount)).toEqual([200, 0]);
      expect(shown.total).toBe(1299 * 4 - 200);
    }));
});

describe('domain orders by actor', () => {
  async function ordered(db: pg.ClientBase) {
    const cast = await people(db);
    const cart = await cartOf(db, cast.owner);
    const domain = name();
    await db.query(`insert into public.cart_items (cart_id, domain) values ($1, $2)`, [
      cart,
      domain,
    ]);
    const order = await one<{ id: string }>(
      db,
      `select app.create_domain_order($1, 1::smallint, null) as id`,
      [cast.owner.id],
    );
    return { ...cast, orderId: order.id, domain };
  }

  it('the cart becomes an authorizing order with its names; only the service role makes it', () =>
    withRollback(pool, async (db) => {
      const { owner, orderId, domain } = await ordered(db);
      const order = await one<{ status: number; amount: string; purchase_source: string }>(
        db,
        `select status, amount::text, purchase_source from public.orders where id = $1`,
        [orderId],
      );
      expect(order).toEqual({ status: 16, amount: '1299', purchase_source: 'domain-purchase' });
      const names = await db.query(
        `select domain::text, status from public.purchased_domains where order_id = $1`,
        [orderId],
      );
      expect(names.rows).toEqual([{ domain, status: 'pending' }]);
      await expectRefused(
        queryAs(db, owner, `select app.create_domain_order($1, 1::smallint, null)`, [owner.id]),
      );
    }));

  it('an empty cart makes no order', () =>
    withRollback(pool, async (db) => {
      const { owner } = await people(db);
      const error = await expectDatabaseError(
        db.query(`select app.create_domain_order($1, 1::smallint, null)`, [owner.id]),
      );
      expect(error.message).toBe('cart_empty');
      expect(error.detail).toBe('Nothing to checkout, the cart is empty');
    }));

  it('the owner and staff read the order and its names; another user does not; nobody writes', () =>
    withRollback(pool, async (db) => {
      const { owner, other, staff, orderId } = await ordered(db);
      const read = `select
        (select count(*)::int from public.orders where id = $1) as orders,
        (select count(*)::int from public.purchased_domains where order_id = $1) as names`;
      expect((await queryAs(db, owner, read, [orderId])).rows[0]).toEqual({ orders: 1, names: 1 });
      expect((await queryAs(db, staff, read, [orderId])).rows[0]).toEqual({ orders: 1, names: 1 });
      expect((await queryAs(db, other, read, [orderId])).rows[0]).toEqual({ orders: 0, names: 0 });
      for (const who of [owner, staff]) {
        await expectRefused(
          queryAs(
            db,
            who,
            `update public.purchased_domains set status = 'registered' where order_id = $1`,
            [orderId],
          ),
        );
        await expectRefused(
          queryAs(db, who, `update public.orders set status = 48 where id = $1`, [orderId]),
        );
      }
    }));

  it('the paid checkout sends the names to the registrar and empties the cart, once', () =>
    withRollback(pool, async (db) => {
      const { owner, orderId } = await ordered(db);
      const session = {
        object: 'checkout.session',
        id: 'cs_test_x',
        status: 'complete',
        payment_status: 'paid',
        subscription: 'sub_x',
        customer: null,
        metadata: {
          kind: 'domain-purchase',
          order_id: orderId,
          account_id: owner.personalAccountId,
        },
      };
      const applied = await one<{ result: string }>(
        db,
        `select app.apply_stripe_checkout($1, now()) as result`,
        [session],
      );
      expect(applied.result).toBe('applied');
      const again = await one<{ result: string }>(
        db,
        `select app.apply_stripe_checkout($1, now()) as result`,
        [session],
      );
      expect(again.result).toBe('stale');
      const state = await one(
        db,
        `select o.status, d.status as name, d.billing_subscription_id,
           (select count(*)::int from public.cart_items i join public.shopping_carts c
             on c.id = i.cart_id where c.user_id = $2) as in_cart
         from public.orders o join public.purchased_domains d on d.order_id = o.id
         where o.id = $1`,
        [orderId, owner.id],
      );
      expect(state).toEqual({
        status: 32,
        name: 'registering',
        billing_subscription_id: 'sub_x',
        in_cart: 0,
      });
    }));

  const paid = async (db: pg.ClientBase) => {
    const cast = await ordered(db);
    await db.query(`select app.domain_order_paid($1, 'sub_x')`, [cast.orderId]);
    return cast;
  };
  const finish = (db: pg.ClientBase, id: string, ok: boolean, problem: string | null = null) =>
    one<{ result: string }>(
      db,
      `select app.finish_domain_registration($1, $2, now() + interval '1 year', $3, 'zone-1',
         array['ns1.test'], 'token', true) as result`,
      [id, ok, problem],
    );
  const nameOf = (db: pg.ClientBase, orderId: string) =>
    one<{ id: string; status: string; problem: string | null; refund_amount: string | null }>(
      db,
      `select id, status, problem, refund_amount::text from public.purchased_domains
       where order_id = $1`,
      [orderId],
    );

  it('a refused paid name owes its item’s amount; the refund settles the order as 51', () =>
    withRollback(pool, async (db) => {
      const { orderId } = await paid(db);
      const row = await nameOf(db, orderId);
      expect((await finish(db, row.id, false, 'Refused.')).result).toBe('failed');
      expect(await nameOf(db, orderId)).toMatchObject({
        status: 'failed',
        problem: 'Refused.',
        refund_amount: '1299',
      });
      const claimed = await db.query<{ id: string; status: string }>(
        `select id, status from app.claim_domain_work(100) where order_id = $1`,
        [orderId],
      );
      expect(claimed.rows).toEqual([{ id: row.id, status: 'refund' }]);
      await db.query(`update public.purchased_domains set locked_until = null where id = $1`, [
        row.id,
      ]);
      expect(await one(db, `select status from public.orders where id = $1`, [orderId])).toEqual({
        status: 49,
      });
      const recorded = await one<{ result: string }>(
        db,
        `select app.record_domain_refund($1, 're_1') as result`,
        [row.id],
      );
      expect(recorded.result).toBe('refunded');
      expect(await one(db, `select status from public.orders where id = $1`, [orderId])).toEqual({
        status: 51,
      });
      expect(
        await one(
          db,
          `select refunded_amount::text, refund_reason from public.order_items where order_id = $1`,
          [orderId],
        ),
      ).toEqual({ refunded_amount: '1299', refund_reason: 'Refused.' });
      const again = await one<{ result: string }>(
        db,
        `select app.record_domain_refund($1, 're_2') as result`,
        [row.id],
      );
      expect(again.result).toBe('stale');
      const queue = await db.query(`select 1 from app.claim_domain_work(100) where order_id = $1`, [
        orderId,
      ]);
      expect(queue.rows).toHaveLength(0);
    }));

  it('a name added as a branded domain meanwhile fails the registration, never raises', () =>
    withRollback(pool, async (db) => {
      const { orderId, domain, other } = await paid(db);
      await db.query(
        `insert into public.domains (domain, kind, account_id) values ($1, 'branded', $2)`,
        [domain, other.personalAccountId],
      );
      const row = await nameOf(db, orderId);
      expect((await finish(db, row.id, true)).result).toBe('taken');
      expect(await nameOf(db, orderId)).toMatchObject({
        status: 'failed',
        problem: `${domain} was added as a branded domain by another account before its registration.`,
        refund_amount: '1299',
      });
      const zones = await db.query(`select 1 from public.dns_zones where name = $1`, [domain]);
      expect(zones.rows).toHaveLength(0);
    }));

  it('an expired checkout cancels the order and its names; the cart is kept', () =>
    withRollback(pool, async (db) => {
      const { owner, orderId } = await ordered(db);
      const session = {
        object: 'checkout.session',
        id: 'cs_test_gone',
        status: 'expired',
        payment_status: 'unpaid',
        subscription: null,
        customer: null,
        metadata: {
          kind: 'domain-purchase',
          order_id: orderId,
          account_id: owner.personalAccountId,
        },
      };
      await db.query(`select app.apply_stripe_checkout($1, now())`, [session]);
      const state = await one(
        db,
        `select o.status, d.status as name, d.refund_amount,
           (select count(*)::int from public.cart_items i join public.shopping_carts c
             on c.id = i.cart_id where c.user_id = $2) as in_cart
         from public.orders o join public.purchased_domains d on d.order_id = o.id
         where o.id = $1`,
        [orderId, owner.id],
      );
      expect(state).toEqual({ status: 49, name: 'cancelled', refund_amount: null, in_cart: 1 });
    }));
});
