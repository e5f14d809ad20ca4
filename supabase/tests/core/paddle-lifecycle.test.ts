import { describe, expect, it } from 'vitest';
import {
  createPlan,
  createUser,
  expectRefused,
  one,
  queryAs,
  useDatabase,
  withRollback,
} from '../support/index.ts';

/**
 * Paddle after checkout, database side (20261122005800, 20261122005810): a pending downgrade in
 * a subscription's custom data is the account's future row until it is dropped, guarded by
 * Paddle's `updatedAt` like the subscription; a payment-method update's zero-value transaction
 * is no invoice; the cron job's kick sends nothing until a downgrade is due, and its settings
 * are nobody's but postgres'.
 */
const pool = useDatabase();

const DAY = 86_400_000;

function paddleSubscription(
  accountId: string,
  priceId: string,
  updatedAt: Date,
  extra: { scheduled?: string; status?: string; periodEnd?: Date } = {},
) {
  const periodEnd = extra.periodEnd ?? new Date(Date.now() + 30 * DAY);
  return {
    id: 'sub_01paddlelifecycletest000000',
    status: extra.status ?? 'active',
    customerId: 'ctm_01paddlelifecycletest000000',
    currencyCode: 'USD',
    updatedAt: updatedAt.toISOString(),
    currentBillingPeriod: {
      // Before the transaction's now(), which is what "has started" is read against.
      startsAt: new Date(Date.now() - DAY).toISOString(),
      endsAt: periodEnd.toISOString(),
    },
    scheduledChange: null,
    items: [{ quantity: 1, price: { unitPrice: { amount: '1000' } }, trialDates: null }],
    customData: {
      account_id: accountId,
      plan_price_id: priceId,
      ...(extra.scheduled ? { scheduled_plan_price_id: extra.scheduled } : {}),
    },
  };
}

describe('Paddle pending downgrades', () => {
  it('the custom data names a future row; an older entity cannot bring a dropped one back', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      const current = await createPlan(db, { features: ['use_bulk'], amount: 5000 });
      const cheaper = await createPlan(db, { interval: 'monthly', amount: 500 });
      const apply = async (value: unknown) =>
        (
          await one<{ result: string }>(db, `select app.apply_paddle_subscription($1) as result`, [
            JSON.stringify(value),
          ])
        ).result;
      const t0 = new Date();
      const periodEnd = new Date(Date.now() + 30 * DAY);
      const scheduled = paddleSubscription(user.personalAccountId, current.priceId, t0, {
        scheduled: cheaper.priceId,
        periodEnd,
      });
      expect(await apply(scheduled)).toBe('applied');
      const future = await one<{
        name: string;
        interval: string;
        ends_at: Date | null;
        period_starts_at: Date;
      }>(
        db,
        `select name, interval, ends_at, period_starts_at from public.subscriptions
         where billing_type = 2 and billing_id = 'sub_01paddlelifecycletest000000:scheduled'`,
      );
      expect(future).toMatchObject({ name: cheaper.name, interval: 'monthly', ends_at: null });
      expect(future.period_starts_at.getTime()).toBe(periodEnd.getTime());
      // The plan stays until the period ends.
      const still = await one<{ has: boolean }>(
        db,
        `select app.account_has_feature($1, 'use_bulk') as has`,
        [user.personalAccountId],
      );
      expect(still.has).toBe(true);

      // Dropped (a newer entity without it): ended before it started.
      const later = new Date(t0.getTime() + 1000);
      expect(await apply(paddleSubscription(user.personalAccountId, current.priceId, later))).toBe(
        'applied',
      );
      // The older entity, replayed, is stale and leaves it ended.
      expect(await apply(scheduled)).toBe('stale');
      const ended = await one<{ ends_at: Date | null; period_starts_at: Date }>(
        db,
        `select ends_at, period_starts_at from public.subscriptions
         where billing_id = 'sub_01paddlelifecycletest000000:scheduled'`,
      );
      expect(ended.ends_at).not.toBeNull();
      expect(ended.ends_at!.getTime()).toBeLessThanOrEqual(ended.period_starts_at.getTime());

      // A scheduled cancel drops it too (nothing follows an ending plan).
      const again = new Date(t0.getTime() + 2000);
      expect(
        await apply({
          ...paddleSubscription(user.personalAccountId, current.priceId, again, {
            scheduled: cheaper.priceId,
            periodEnd,
          }),
          scheduledChange: { action: 'cancel', effectiveAt: periodEnd.toISOString() },
        }),
      ).toBe('applied');
      const cancelled = await one<{ ends_at: Date | null }>(
        db,
        `select ends_at from public.subscriptions
         where billing_id = 'sub_01paddlelifecycletest000000:scheduled'`,
      );
      expect(cancelled.ends_at).not.toBeNull();
    }));

  it('a payment-method update records the card and no invoice', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await db.query(
        `insert into public.billing_customers (account_id, billing_type, billing_id)
         values ($1, 2, 'ctm_01paddlelifecyclecard0000000')`,
        [user.personalAccountId],
      );
      const transaction = {
        id: 'txn_01paddlelifecyclecard0000000',
        status: 'completed',
        origin: 'subscription_payment_method_change',
        customerId: 'ctm_01paddlelifecyclecard0000000',
        currencyCode: 'USD',
        customData: { account_id: user.personalAccountId },
        updatedAt: new Date().toISOString(),
        createdAt: new Date().toISOString(),
        details: { totals: { grandTotal: '0' } },
        payments: [
          {
            status: 'captured',
            capturedAt: new Date().toISOString(),
            methodDetails: { card: { last4: '4444', expiryMonth: 3, expiryYear: 2031 } },
          },
        ],
      };
      await db.query(`select app.apply_paddle_transaction($1)`, [JSON.stringify(transaction)]);
      const customer = await one<{ pm_last_four: string; pm_expiration: string }>(
        db,
        `select pm_last_four, pm_expiration from public.billing_customers
         where account_id = $1 and billing_type = 2`,
        [user.personalAccountId],
      );
      expect(customer).toEqual({ pm_last_four: '4444', pm_expiration: '03/2031' });
      const invoices = await db.query(`select 1 from public.invoices where account_id = $1`, [
        user.personalAccountId,
      ]);
      expect(invoices.rowCount).toBe(0);
    }));
});

describe('the paddle-downgrades cron job', () => {
  it('sends one request when a downgrade is due within the lead, none otherwise', () =>
    withRollback(pool, async (db) => {
      await db.query(
        `update app.billing_schedule_settings
         set apply_url = 'http://127.0.0.1:9/functions/v1/billing/paddle/scheduled-changes',
             apply_key = 'test-key', lead_seconds = 3600`,
      );
      const kick = async () =>
        (await one<{ id: string | null }>(db, `select app.kick_paddle_downgrades() as id`)).id;
      const user = await createUser(db);
      const plan = await createPlan(db);
      const before = await one<{ count: number }>(
        db,
        `select count(*)::int as count from public.subscriptions
         where billing_type = 2 and billing_id like '%:scheduled' and ends_at is null
           and period_starts_at <= now() + interval '1 hour'`,
      );
      // Only our own row decides (no other test leaves a due one behind).
      if (before.count === 0) expect(await kick()).toBeNull();
      await db.query(
        `insert into public.subscriptions (account_id, plan_id, price_id, name, "group",
           billing_type, billing_id, interval, amount, currency, period_starts_at)
         select $1, p.id, pp.id, p.name, p."group", 2, 'sub_01paddlecrontest00000000:scheduled',
           pp.interval, pp.amount, pp.currency, now() + interval '30 minutes'
         from public.plans p join public.plan_prices pp on pp.plan_id = p.id where pp.id = $2`,
        [user.personalAccountId, plan.priceId],
      );
      expect(await kick()).not.toBeNull();
    }));

  it('its settings and its kick are nobody’s but postgres’', () =>
    withRollback(pool, async (db) => {
      const user = await createUser(db);
      await expectRefused(
        queryAs(db, user.id, `select apply_key from app.billing_schedule_settings`),
      );
      await expectRefused(queryAs(db, user.id, `select app.kick_paddle_downgrades()`));
      await expectRefused(queryAs(db, null, `select app.kick_paddle_downgrades()`));
    }));
});

describe('two notifications of one new Paddle transaction at once', () => {
  it('the older one, whose insert met the newer row, loses (stale) instead of overwriting it', async () => {
    const setup = await pool.connect();
    const newer = await pool.connect();
    const older = await pool.connect();
    let userId = '';
    const id = `txn_01paddleraceguard${Date.now().toString(36)}`.slice(0, 30);
    try {
      const user = await createUser(setup);
      userId = user.id;
      const customer = `ctm_01paddlerace${Date.now().toString(36)}`.slice(0, 30);
      await setup.query(
        `insert into public.billing_customers (account_id, billing_type, billing_id)
         values ($1, 2, $2)`,
        [user.personalAccountId, customer],
      );
      const t0 = new Date(Date.now() - 60_000);
      const transaction = (status: string, at: Date) =>
        JSON.stringify({
          id,
          status,
          origin: 'api',
          customerId: customer,
          currencyCode: 'USD',
          customData: { account_id: user.personalAccountId },
          createdAt: t0.toISOString(),
          billedAt: t0.toISOString(),
          updatedAt: at.toISOString(),
          details: { totals: { grandTotal: '1900' } },
          payments: [],
        });
      const apply = `select app.apply_paddle_transaction_base($1) as result`;

      // The newer (paid) one inserts the invoice and has not committed yet…
      await newer.query('begin');
      expect(
        (await one<{ result: string }>(newer, apply, [transaction('completed', new Date())]))
          .result,
      ).toBe('applied');
      // …when the older (billed) one looks (finds nothing), inserts, and waits on its row.
      await older.query('begin');
      const olderPid = (await one<{ pid: number }>(older, 'select pg_backend_pid() as pid')).pid;
      const olderResult = one<{ result: string }>(older, apply, [transaction('billed', t0)]);
      for (let i = 0; i < 200; i++) {
        const waiting = await setup.query(
          `select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
          [olderPid],
        );
        if (waiting.rowCount === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await newer.query('commit');
      expect((await olderResult).result).toBe('stale');
      await older.query('commit');

      const invoice = await one<{ status: string; paid: boolean }>(
        setup,
        `select status, paid_at is not null as paid from public.invoices
         where billing_type = 2 and billing_id = $1`,
        [id],
      );
      expect(invoice).toEqual({ status: 'paid', paid: true });
    } finally {
      await newer.query('rollback').catch(() => {});
      await older.query('rollback').catch(() => {});
      await setup.query(`delete from public.invoices where billing_type = 2 and billing_id = $1`, [
        id,
      ]);
      if (userId) await setup.query('delete from auth.users where id = $1', [userId]);
      for (const client of [setup, newer, older]) client.release();
    }
  });
});
