import { describe, expect, it } from 'vitest';
import {
  createCast,
  createUser,
  expectCoded,
  expectDatabaseError,
  expectRefused,
  inSavepoint,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/** Kiosk tables are for staff only; the domain cart is its owner's. */
const pool = useDatabase();

/** One valid row per staff-managed table, as a staff member would insert it in the kiosk. */
const KIOSK_INSERTS: Record<string, string> = {
  banned_domains: `insert into public.banned_domains (domain, reason) values ('evil-' || substr(md5(random()::text), 1, 8) || '.test', 'test')`,
  ip_blocks: `insert into public.ip_blocks (range, reason) values (('192.0.2.' || (random() * 200)::int || '/32')::cidr, 'test')`,
  password_dictionary: `insert into public.password_dictionary (word) values ('word' || substr(md5(random()::text), 1, 8))`,
  tld_prices: `insert into public.tld_prices (tld, cost_amount) values ('t' || substr(md5(random()::text), 1, 6), 1000)`,
  access_invitations: `insert into public.access_invitations (email, token_hash) values ('a' || substr(md5(random()::text), 1, 8) || '@example.com', md5(random()::text))`,
  dns_zones: `insert into public.dns_zones (zone_id, name) values (md5(random()::text), 'z' || substr(md5(random()::text), 1, 8) || '.test')`,
};

describe('kiosk tables by actor', () => {
  it.each(Object.entries(KIOSK_INSERTS))('%s: staff write and read it', (table, insert) =>
    withRollback(pool, async (db) => {
      const staff = await createUser(db, { developer: true });
      const written = await queryAs(db, staff.id, insert);
      expect(written.rowCount).toBe(1);
      const read = await queryAs<{ n: number }>(
        db,
        staff.id,
        `select count(*)::int as n from public.${table}`,
      );
      expect(read.rows[0]?.n).toBeGreaterThan(0);
    }),
  );

  it.each(Object.entries(KIOSK_INSERTS))(
    '%s: an organization owner sees nothing and cannot write; anonymous is refused',
    (table, insert) =>
      withRollback(pool, async (db) => {
        const { owner } = await createCast(db);
        await db.query(insert);
        const read = await queryAs(db, owner.id, `select count(*)::int as n from public.${table}`);
        expect(read.rows).toEqual([{ n: 0 }]);
        await expectRefused(queryAs(db, owner.id, insert));
        await expectRefused(queryAs(db, null, `select count(*) from public.${table}`));
      }),
  );

  it('webhook events: staff read them, nobody signed in writes them, each event is stored once', () =>
    withRollback(pool, async (db) => {
      const { staff } = await createCast(db);
      const insert = `insert into public.webhook_events (provider, event_id, type, payload)
        values ('billing-1', 'evt_test_once', 'subscription.updated', '{}')`;
      await db.query(insert);
      const read = await queryAs(
        db,
        staff.id,
        `select type from public.webhook_events where event_id = 'evt_test_once'`,
      );
      expect(read.rows).toEqual([{ type: 'subscription.updated' }]);
      await expectRefused(queryAs(db, staff.id, insert));
      const duplicate = await expectDatabaseError(db.query(insert));
      expect(duplicate.code).toBe('23505');
    }));
});

describe('kiosk helpers', () => {
  it('is_ip_blocked matches addresses inside unexpired blocks', () =>
    withRollback(pool, async (db) => {
      await db.query(
        `insert into public.ip_blocks (range, expires_at) values ('100.64.0.0/16', null), ('100.65.0.0/16', now() - interval '1 hour')`,
      );
      const result = await one(
        db,
        `select app.is_ip_blocked('100.64.3.4') as inside, app.is_ip_blocked('100.66.0.1') as outside,
           app.is_ip_blocked('100.65.0.1') as expired`,
      );
      expect(result).toEqual({ inside: true, outside: false, expired: false });
    }));

  it('is_domain_banned covers the domain and its subdomains only', () =>
    withRollback(pool, async (db) => {
      await db.query(`insert into public.banned_domains (domain) values ('banned-example.test')`);
      const result = await one(
        db,
        `select app.is_domain_banned('banned-example.test') as exact,
           app.is_domain_banned('www.Banned-Example.test') as sub,
           app.is_domain_banned('notbanned-example.test') as lookalike`,
      );
      expect(result).toEqual({ exact: true, sub: true, lookalike: false });
    }));
});

describe('shopping cart', () => {
  it('prices items from the TLD price list, whatever amount the client sends', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      await db.query(
        `insert into public.tld_prices (tld, cost_amount, overprice_amount) values ('carttest', 1000, 250)`,
      );
      const cart = await queryAs<{ id: string }>(
        db,
        me.id,
        `insert into public.shopping_carts default values returning id`,
      );
      const item = await queryAs(
        db,
        me.id,
        `insert into public.cart_items (cart_id, domain, years, amount)
         values ($1, 'my-shop.carttest', 2, 1)
         returning amount, currency`,
        [cart.rows[0]?.id],
      );
      expect(item.rows).toEqual([{ amount: '2500', currency: 'USD' }]);
    }));

  it('refuses a domain whose extension is not sold with tld_not_available', () =>
    withRollback(pool, async (db) => {
      const me = await createUser(db);
      const cart = await one<{ id: string }>(
        db,
        `insert into public.shopping_carts (user_id) values ($1) returning id`,
        [me.id],
      );
      await expectCoded(
        queryAs(
          db,
          me.id,
          `insert into public.cart_items (cart_id, domain) values ($1, 'nope.unsoldtld')`,
          [cart.id],
        ),
        'tld_not_available',
      );
    }));

  it("others cannot see or fill someone's cart; staff can read it", () =>
    withRollback(pool, async (db) => {
      const { member, stranger, staff } = await createCast(db);
      const cart = await one<{ id: string }>(
        db,
        `insert into public.shopping_carts (user_id) values ($1) returning id`,
        [member.id],
      );
      const seen = await queryAs(
        db,
        stranger.id,
        `select id from public.shopping_carts where id = $1`,
        [cart.id],
      );
      expect(seen.rows).toEqual([]);
      await expectRefused(
        inSavepoint(db, () =>
          queryAs(
            db,
            stranger.id,
            `insert into public.cart_items (cart_id, domain) values ($1, 'x.com')`,
            [cart.id],
          ),
        ),
      );
      const kiosk = await queryAs(
        db,
        staff.id,
        `select id from public.shopping_carts where id = $1`,
        [cart.id],
      );
      expect(kiosk.rows).toEqual([{ id: cart.id }]);
    }));
});
