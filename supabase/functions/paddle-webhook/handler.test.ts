import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv, waitFor } from '../_shared/testing.ts';
import { PROVIDER } from './handler.ts';
import { type PaddleNotification, paddleReplay } from './testing.ts';

/**
 * The handler called directly with notifications the stack's Paddle sandbox produced for a real
 * overlay checkout, signed as Paddle signs them. The sandbox also delivers every notification to
 * the stack's own paddle-webhook function, as Paddle would: these tests check that any number
 * of deliveries, in any order, have one effect.
 */
const env = useStackAsRuntimeEnv();
const billing = overlayBillingFromEnv();
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});
const { deliver, eventsAbout } = paddleReplay(env);

/** A user who bought a plan of their own through the sandbox's overlay checkout with 4242…. */
async function subscribedUser() {
  const suffix = crypto.randomUUID().slice(0, 8);
  const email = `paddle-${suffix}@functions.test`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  const db = sql();
  const [profile] = await db<{ account: string }[]>`
    select personal_account_id as account from public.profiles where id = ${data.user.id}`;
  const [plan] = await db<{ price: string }[]>`
    with plan as (
      insert into public.plans (name, "group") values (${`paddle-test-${suffix}`}, 'test') returning id
    )
    insert into public.plan_prices (plan_id, interval, amount, currency)
    select id, 'yearly', 12900, 'USD' from plan returning id as price`;
  const account = profile!.account;
  const customData = { account_id: account, plan_price_id: plan!.price };
  const customer = await billing.createCustomer({ email, customData: { account_id: account } });
  const transaction = await billing.createCheckout({
    customerId: customer.id,
    unitAmount: 12900,
    currency: 'USD',
    interval: 'year',
    productName: 'Test plan',
    priceName: 'Test plan (yearly)',
    trialDays: 0,
    checkoutUrl: 'http://localhost/paddle/payment',
    customData,
  });
  const paid = await fetch(`${env.PADDLE_API_BASE}/checkout/${transaction.id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: env.PADDLE_CLIENT_TOKEN!,
      parent_origin: 'http://localhost',
      email,
      country: 'US',
      postcode: '10001',
      cardNumber: '4242424242424242',
      cardholder: 'Test Buyer',
      expiry: '12/34',
      cvc: '123',
    }),
  });
  await paid.body?.cancel();
  assert.equal(paid.status, 200);
  const done = await billing.retrieveTransaction(transaction.id);
  assert.equal(done.status, 'completed');
  return {
    account,
    customer: customer.id,
    transaction: transaction.id,
    subscription: done.subscriptionId!,
  };
}

async function state(account: string) {
  const db = sql();
  const subscriptions = await db<
    { billing_status: string; ends_at: Date | null; name: string; period_ends_at: Date | null }[]
  >`
    select billing_status, ends_at, name, period_ends_at from public.subscriptions
    where account_id = ${account} and billing_type = 2`;
  const [counts] = await db<{ invoices: number; customers: number; last_four: string | null }[]>`
    select (select count(*)::int from public.invoices where account_id = ${account}) as invoices,
           (select count(*)::int from public.billing_customers where account_id = ${account}) as customers,
           (select pm_last_four from public.billing_customers
            where account_id = ${account} and billing_type = 2) as last_four`;
  return { subscriptions, ...counts! };
}

/** The account's Paddle plan orders' statuses, oldest first. */
async function orderStatuses(account: string) {
  const rows = await sql()<{ status: number }[]>`
    select o.status from public.orders o join public.invoices i on i.order_id = o.id
    where o.account_id = ${account} and o.billing_type = 2 order by i.issued_at`;
  return rows.map((row) => row.status);
}

Deno.test('paddle-webhook', async (t) => {
  try {
    const user = await subscribedUser();
    const events = await eventsAbout([user.subscription, user.transaction, user.customer]);
    assert.deepEqual(events.map((event) => event.event_type).sort(), [
      'customer.created',
      'subscription.activated',
      'subscription.created',
      'transaction.completed',
      'transaction.created',
      'transaction.paid',
    ]);

    await t.step('refuses a bad signature and stores nothing', async () => {
      const forged = { ...events[0]!, event_id: `evt_forged_${crypto.randomUUID()}` };
      const answer = await deliver(forged, { secret: 'pdl_ntfset_not_ours' });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_signature');
      const rows =
        await sql()`select 1 from public.webhook_events where event_id = ${forged.event_id}`;
      assert.equal(rows.length, 0);
    });

    await t.step('refuses a signature older than 5 s', async () => {
      const late = { ...events[0]!, event_id: `evt_late_${crypto.randomUUID().slice(0, 8)}` };
      const answer = await deliver(late, { at: Math.floor(Date.now() / 1000) - 6 });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_signature');
      const rows =
        await sql()`select 1 from public.webhook_events where event_id = ${late.event_id}`;
      assert.equal(rows.length, 0);
    });

    await t.step('stores an unknown event type once and changes nothing', async () => {
      // The sandbox's own deliveries to the stack's function land meanwhile (its first request
      // boots it): the state compared is the one they leave.
      await waitFor('the stack to apply the sandbox deliveries', async () => {
        const [row] = await sql()<{ applied: number }[]>`
          select count(*)::int as applied from public.webhook_events
          where provider = ${PROVIDER} and event_id = any (${events.map((event) => event.event_id)})
            and processed_at is not null`;
        return row!.applied === events.length;
      });
      const before = await state(user.account);
      const unknown = {
        ...events[0]!,
        event_id: `evt_unknown_${crypto.randomUUID().slice(0, 8)}`,
        event_type: 'payout.paid',
      };
      const first = await deliver(unknown);
      assert.equal(first.status, 200);
      assert.equal(first.body.result, 'ignored');
      assert.equal((await deliver(unknown)).body.result, 'duplicate');
      const rows = await sql()`
        select processed_at from public.webhook_events
        where provider = ${PROVIDER} and event_id = ${unknown.event_id}`;
      assert.equal(rows.length, 1);
      assert.ok(rows[0]!.processed_at);
      assert.deepEqual(await state(user.account), before);
    });

    await t.step('each event type replayed 5 times, newest first, has one effect', async () => {
      for (let round = 0; round < 5; round++) {
        for (const event of [...events].reverse()) assert.equal((await deliver(event)).status, 200);
      }
      const after = await state(user.account);
      assert.equal(after.subscriptions.length, 1);
      assert.equal(after.subscriptions[0]!.billing_status, 'active');
      assert.equal(after.subscriptions[0]!.ends_at, null);
      assert.ok(after.subscriptions[0]!.period_ends_at);
      assert.equal(after.invoices, 1);
      assert.equal(after.customers, 1);
      assert.equal(after.last_four, '4242');
      const stored = await sql()`
        select event_id from public.webhook_events
        where provider = ${PROVIDER} and event_id = any (${events.map((event) => event.event_id)})
          and processed_at is not null`;
      assert.equal(stored.length, events.length);
    });

    await t.step('a late, older notification never rolls a cancellation back', async () => {
      await billing.cancel(user.subscription, 'next_billing_period');
      const updated = (await eventsAbout([user.subscription])).filter(
        (event) => event.event_type === 'subscription.updated',
      );
      assert.equal(updated.length, 1);
      for (let i = 0; i < 5; i++) await deliver(updated[0]);
      const created = events.find((event) => event.event_type === 'subscription.created')!;
      // A copy of the creation notification delivered late (a new id, its old entity).
      const late = await deliver({ ...created, event_id: `${created.event_id}late` });
      assert.equal(late.body.result, 'stale');
      assert.ok((await state(user.account)).subscriptions[0]!.ends_at, 'still ending');

      await billing.removeScheduledChange(user.subscription);
      const kept = (await eventsAbout([user.subscription])).filter(
        (event) => event.event_type === 'subscription.updated',
      );
      assert.equal(kept.length, 2);
      // Both updates, in the wrong order and again: the newer entity wins.
      for (const event of [kept[1]!, kept[0]!, kept[1]!, kept[0]!]) await deliver(event);
      assert.equal((await state(user.account)).subscriptions[0]!.ends_at, null);
    });

    await t.step('a delivery answered 500 is retried by Paddle and applied once', async () => {
      const db = sql();
      const trigger = `paddle_test_fail_${crypto.randomUUID().slice(0, 8)}`;
      await db.unsafe(`
        create function public.${trigger}() returns trigger language plpgsql as $$
        begin raise exception 'simulated outage'; end $$;
        create trigger ${trigger} before update on public.subscriptions for each row
          when (new.account_id = '${user.account}' and new.billing_status = 'canceled')
          execute function public.${trigger}();`);
      let canceled: PaddleNotification | undefined;
      try {
        await billing.cancel(user.subscription, 'immediately');
        canceled = (await eventsAbout([user.subscription])).find(
          (event) => event.event_type === 'subscription.canceled',
        );
        assert.ok(canceled);
        const failed = await deliver(canceled);
        assert.equal(failed.status, 500);
        const [row] = await db<{ error: string | null; processed_at: Date | null }[]>`
          select error, processed_at from public.webhook_events
          where provider = ${PROVIDER} and event_id = ${canceled.event_id}`;
        assert.match(row!.error ?? '', /simulated outage/);
        assert.equal(row!.processed_at, null);
        assert.equal((await state(user.account)).subscriptions[0]!.billing_status, 'active');
      } finally {
        await db.unsafe(
          `drop trigger ${trigger} on public.subscriptions; drop function public.${trigger}();`,
        );
      }
      // The sandbox's own delivery retries (200 ms, 400 ms, …) and gets through now.
      await waitFor('the sandbox to redeliver the notification', async () => {
        const [row] = await db<{ processed_at: Date | null }[]>`
          select processed_at from public.webhook_events
          where provider = ${PROVIDER} and event_id = ${canceled.event_id}`;
        return row?.processed_at;
      });
      assert.equal((await deliver(canceled)).body.result, 'duplicate');
      const [subscription] = (await state(user.account)).subscriptions;
      assert.equal(subscription!.billing_status, 'canceled');
      assert.ok(subscription!.ends_at && subscription!.ends_at.getTime() <= Date.now());
    });
  } finally {
    await closeSql();
  }
});

Deno.test('paddle-webhook: a pending downgrade, a declined renewal and its payment', async (t) => {
  try {
    const user = await subscribedUser();
    const db = sql();
    const [monthly] = await db<{ price: string }[]>`
      select pp.id::text as price from public.plan_prices pp join public.plans p on p.id = pp.plan_id
      where p.name = 'pro' and pp.interval = 'monthly' and pp.currency = 'USD'`;
    const current = await billing.retrieveSubscription(user.subscription);
    await billing.setCustomData(user.subscription, {
      ...(current.customData as Record<string, string>),
      scheduled_plan_price_id: monthly!.price,
    });
    const renewed = await fetch(
      `${env.PADDLE_API_BASE}/_sandbox/subscriptions/${user.subscription}/renew`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${env.PADDLE_API_KEY}` },
        body: JSON.stringify({ outcome: 'failed' }),
      },
    );
    assert.equal(renewed.status, 200);
    const events = await eventsAbout([user.subscription]);
    const types = events.map((event) => event.event_type);
    // Paddle's order for a renewal whose payment fails (its "subscription past due" guide).
    for (const type of [
      'transaction.billed',
      'transaction.payment_failed',
      'transaction.past_due',
      'subscription.past_due',
    ])
      assert.ok(types.includes(type), `${type} in ${types.join(', ')}`);

    await t.step('replayed 5 times, newest first, the events have one effect', async () => {
      for (let round = 0; round < 5; round++)
        for (const event of [...events].reverse()) assert.equal((await deliver(event)).status, 200);
      const after = await state(user.account);
      const main = after.subscriptions.filter((row) => row.billing_status !== 'active');
      assert.equal(main.length, 1);
      assert.equal(main[0]!.billing_status, 'past_due');
      // The pending downgrade: one future row, starting where the new period ends.
      const future = after.subscriptions.filter((row) => row.billing_status === 'active');
      assert.equal(future.length, 1);
      assert.equal(future[0]!.ends_at, null);
      const invoices = await db<{ status: string }[]>`
        select status from public.invoices where account_id = ${user.account} order by issued_at`;
      assert.deepEqual(
        invoices.map((invoice) => invoice.status),
        ['paid', 'open'],
      );
      assert.deepEqual(await orderStatuses(user.account), [48, 50], 'the declined renewal failed');
    });

    await t.step('paying the past-due renewal restores the plan, once', async () => {
      const due = await billing.paymentMethodTransaction(user.subscription);
      assert.equal(due.status, 'past_due');
      const paid = await fetch(`${env.PADDLE_API_BASE}/checkout/${due.id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: env.PADDLE_CLIENT_TOKEN!,
          parent_origin: 'http://localhost:45173',
          email: 'overlay@functions.test',
          country: 'US',
          postcode: '10001',
          cardNumber: '4242 4242 4242 4242',
          cardholder: 'Test Buyer',
          expiry: '12/34',
          cvc: '123',
        }),
      });
      assert.match(await paid.text(), /checkout\.completed/);
      const all = await eventsAbout([user.subscription]);
      // Every event again, oldest last: the newest entity still wins.
      for (const event of [...all].reverse()) await deliver(event);
      const after = await state(user.account);
      assert.ok(after.subscriptions.every((row) => row.billing_status === 'active'));
      const invoices = await db<{ status: string }[]>`
        select status from public.invoices where account_id = ${user.account}`;
      assert.deepEqual(
        invoices.map((invoice) => invoice.status),
        ['paid', 'paid'],
      );
      assert.deepEqual(await orderStatuses(user.account), [48, 48], 'the failed order, now paid');
    });

    await t.step('dropping the pending downgrade ends its row before it starts', async () => {
      const now = await billing.retrieveSubscription(user.subscription);
      const { scheduled_plan_price_id: _gone, ...rest } = now.customData as Record<string, string>;
      await billing.setCustomData(user.subscription, rest);
      const all = await eventsAbout([user.subscription]);
      for (const event of [...all].reverse()) await deliver(event);
      const [row] = await db<{ ends_at: Date | null; period_starts_at: Date }[]>`
        select ends_at, period_starts_at from public.subscriptions
        where billing_type = 2 and billing_id = ${`${user.subscription}:scheduled`}`;
      assert.ok(row!.ends_at && row!.ends_at.getTime() <= row!.period_starts_at.getTime());
    });
  } finally {
    await closeSql();
  }
});
