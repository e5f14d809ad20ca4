import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createPlan,
  createUser,
  expectRefused,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * Stripe events as the stripe-webhook function applies them (app.record_stripe_event), and who
 * may read what they write. The function itself is tested with the sandbox's real events in
 * supabase/functions/stripe-webhook/handler.test.ts.
 */
const pool = useDatabase();
let sequence = 0;

function objects(accountId: string, priceId: string) {
  const n = ++sequence;
  const metadata = { account_id: accountId, plan_price_id: priceId };
  const now = Math.floor(Date.now() / 1000);
  const subscription = {
    id: `sub_dbtest${n}`,
    object: 'subscription',
    customer: `cus_dbtest${n}`,
    status: 'active',
    currency: 'usd',
    cancel_at_period_end: false,
    cancel_at: null,
    ended_at: null,
    trial_end: null,
    metadata,
    items: {
      data: [
        {
          current_period_start: now - 60,
          current_period_end: now + 365 * 86400,
          quantity: 1,
          price: { unit_amount: 12900 },
        },
      ],
    },
  };
  const session = {
    id: `cs_test_dbtest${n}`,
    object: 'checkout.session',
    customer: subscription.customer,
    metadata,
  };
  const invoice = {
    id: `in_dbtest${n}`,
    object: 'invoice',
    customer: subscription.customer,
    currency: 'usd',
    status: 'paid',
    number: `DB-${n}`,
    amount_due: 12900,
    created: now,
    hosted_invoice_url: 'https://invoice.stripe.com/i/test',
    status_transitions: { paid_at: now },
    parent: { subscription_details: { subscription: subscription.id, metadata } },
  };
  return { subscription, session, invoice, now };
}

const event = (id: string, type: string, created: number) => ({
  id,
  object: 'event',
  type,
  created,
  data: {},
});

async function record(db: pg.PoolClient, evt: object, objs: object[]): Promise<string> {
  const { rows } = await db.query<{ result: string }>(
    'select app.record_stripe_event($1::jsonb, $2::jsonb) as result',
    [JSON.stringify(evt), JSON.stringify(objs)],
  );
  return rows[0]!.result;
}

describe('Stripe events (billing type 1)', () => {
  it('a checkout gives the account its customer, subscription and invoice; replays change nothing', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db);
      const { subscription, session, invoice, now } = objects(user.personalAccountId, plan.priceId);
      const completed = event(`evt_c${sequence}`, 'checkout.session.completed', now);
      expect(await record(db, completed, [session, subscription])).toBe('applied');
      expect(await record(db, completed, [session, subscription])).toBe('duplicate');
      expect(await record(db, event(`evt_i${sequence}`, 'invoice.paid', now), [invoice])).toBe(
        'applied',
      );
      const { rows } = await db.query(
        `select s.name, s.billing_status, s.price_id, s.amount, s.currency,
                (select count(*)::int from public.invoices i where i.subscription_id = s.id) as invoices,
                (select count(*)::int from public.billing_customers c where c.account_id = s.account_id) as customers
         from public.subscriptions s where s.account_id = $1`,
        [user.personalAccountId],
      );
      expect(rows).toEqual([
        expect.objectContaining({
          billing_status: 'active',
          price_id: plan.priceId,
          amount: '12900',
          currency: 'USD',
          invoices: 1,
          customers: 1,
        }),
      ]);
    }));

  it('an older event than the one a row was synced from is stale', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const plan = await createPlan(db);
      const { subscription, now } = objects(user.personalAccountId, plan.priceId);
      const canceling = { ...subscription, cancel_at_period_end: true };
      expect(
        await record(db, event(`evt_u${sequence}`, 'customer.subscription.updated', now), [
          canceling,
        ]),
      ).toBe('applied');
      expect(
        await record(db, event(`evt_o${sequence}`, 'customer.subscription.created', now - 5), [
          subscription,
        ]),
      ).toBe('stale');
      const { rows } = await db.query(
        'select ends_at from public.subscriptions where billing_id = $1',
        [subscription.id],
      );
      expect(rows[0].ends_at).not.toBeNull();
    }));

  it('owner and staff read what an event wrote; a stranger reads nothing and no browser role may apply events', () =>
    withRollback(pool, async (db) => {
      const owner = await createUser(db);
      const stranger = await createUser(db);
      const staff = await createUser(db, { developer: true });
      const plan = await createPlan(db);
      const { subscription, session, invoice, now } = objects(
        owner.personalAccountId,
        plan.priceId,
      );
      await record(db, event(`evt_a${sequence}`, 'checkout.session.completed', now), [
        session,
        subscription,
      ]);
      await record(db, event(`evt_b${sequence}`, 'invoice.paid', now), [invoice]);
      const counts = async (userId: string) => {
        const { rows } = await queryAs<{ s: number; c: number; i: number }>(
          db,
          userId,
          `select (select count(*)::int from public.subscriptions where billing_id = $1) as s,
                  (select count(*)::int from public.billing_customers where billing_id = $2) as c,
                  (select count(*)::int from public.invoices where billing_id = $3) as i`,
          [subscription.id, subscription.customer, invoice.id],
        );
        return rows[0];
      };
      expect(await counts(owner.id)).toEqual({ s: 1, c: 1, i: 1 });
      expect(await counts(staff.id)).toEqual({ s: 1, c: 1, i: 1 });
      expect(await counts(stranger.id)).toEqual({ s: 0, c: 0, i: 0 });
      const stored = await queryAs(db, owner.id, 'select id from public.webhook_events');
      expect(stored.rows).toEqual([]);
      for (const actor of [owner.id, null]) {
        await expectRefused(
          queryAs(db, actor, `select app.record_stripe_event('{}'::jsonb, '[]'::jsonb)`),
        );
      }
    }));
});
