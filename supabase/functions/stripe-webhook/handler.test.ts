import assert from 'node:assert/strict';
import type Stripe from 'stripe';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { createStripeWebhookHandler, PROVIDER } from './handler.ts';
import { webhookTesting } from './testing.ts';

/**
 * The handler called directly with events the stack's Stripe sandbox produced for a real
 * checkout, signed as Stripe signs them. The sandbox also delivers every event to the stack's
 * own stripe-webhook function, as Stripe would: these tests check that any number of
 * deliveries, in any order, have one effect.
 */
const env = useStackAsRuntimeEnv();
const webhook = createStripeWebhookHandler();
const { billing, stripe, deliver, subscribedUser, eventsAbout } = webhookTesting(env, webhook);

async function state(account: string) {
  const db = sql();
  const subscriptions = await db<
    { billing_status: string; ends_at: Date | null; name: string; count: number }[]
  >`
    select billing_status, ends_at, name from public.subscriptions where account_id = ${account}`;
  const [counts] = await db<{ invoices: number; customers: number }[]>`
    select (select count(*)::int from public.invoices where account_id = ${account}) as invoices,
           (select count(*)::int from public.billing_customers where account_id = ${account}) as customers`;
  return { subscriptions, ...counts! };
}

Deno.test('stripe-webhook', async (t) => {
  try {
    const user = await subscribedUser();
    const events = await eventsAbout([user.subscription, user.session]);
    assert.deepEqual(events.map((event) => event.type).sort(), [
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ]);

    await t.step('refuses a bad signature and stores nothing', async () => {
      const forged = { ...events[0]!, id: `evt_forged_${crypto.randomUUID()}` };
      const answer = await deliver(forged, { secret: 'whsec_not_ours' });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_signature');
      const rows = await sql()`select 1 from public.webhook_events where event_id = ${forged.id}`;
      assert.equal(rows.length, 0);
    });

    await t.step('refuses a signature older than 300 s', async () => {
      const answer = await deliver(events[0], { at: Math.floor(Date.now() / 1000) - 301 });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_signature');
    });

    await t.step('stores an unknown event type once and changes nothing', async () => {
      const unknown = {
        ...events[0]!,
        id: `evt_unknown_${crypto.randomUUID().slice(0, 8)}`,
        type: 'charge.dispute.created',
      };
      const first = await deliver(unknown);
      assert.equal(first.status, 200);
      assert.equal(first.body.result, 'ignored');
      assert.equal((await deliver(unknown)).body.result, 'duplicate');
      const rows = await sql()`
        select processed_at from public.webhook_events where provider = ${PROVIDER} and event_id = ${unknown.id}`;
      assert.equal(rows.length, 1);
      assert.ok(rows[0]!.processed_at);
    });

    await t.step('each event replayed 5 times, newest first, has one effect', async () => {
      for (let round = 0; round < 5; round++) {
        for (const event of [...events].reverse()) assert.equal((await deliver(event)).status, 200);
      }
      const after = await state(user.account);
      assert.equal(after.subscriptions.length, 1);
      assert.equal(after.subscriptions[0]!.billing_status, 'active');
      assert.equal(after.subscriptions[0]!.ends_at, null);
      assert.equal(after.invoices, 1);
      assert.equal(after.customers, 1);
      const stored = await sql()`
        select event_id from public.webhook_events
        where provider = ${PROVIDER} and event_id = any (${events.map((event) => event.id)})`;
      assert.equal(stored.length, events.length);
    });

    await t.step('a late, older event never rolls a cancellation back', async () => {
      await billing.setCancelAtPeriodEnd(user.subscription, true);
      const [updated] = (await eventsAbout([user.subscription])).filter(
        (event) => event.type === 'customer.subscription.updated',
      );
      assert.ok(updated);
      await deliver(updated);
      const created = events.find((event) => event.type === 'customer.subscription.created')!;
      // A copy of the creation event delivered late (a new id, its old timestamp and payload).
      await deliver({ ...created, id: `${created.id}_late` });
      const after = await state(user.account);
      assert.ok(after.subscriptions[0]!.ends_at, 'still ending at the period end');

      await billing.setCancelAtPeriodEnd(user.subscription, false);
      const resumed = (await eventsAbout([user.subscription])).filter(
        (event) => event.type === 'customer.subscription.updated',
      );
      for (const event of [...resumed, ...resumed]) await deliver(event);
      assert.equal((await state(user.account)).subscriptions[0]!.ends_at, null);
    });

    await t.step('a delivery answered 500 is retried by Stripe and applied once', async () => {
      const db = sql();
      const trigger = `stripe_test_fail_${crypto.randomUUID().slice(0, 8)}`;
      await db.unsafe(`
        create function public.${trigger}() returns trigger language plpgsql as $$
        begin raise exception 'simulated outage'; end $$;
        create trigger ${trigger} before insert on public.invoices for each row
          when (new.account_id = '${user.account}') execute function public.${trigger}();`);
      let renewal: Stripe.Event | undefined;
      try {
        const response = await fetch(
          `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${user.subscription}/renew`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${env.STRIPE_SECRET_KEY}` },
          },
        );
        await response.body?.cancel();
        renewal = (await eventsAbout([user.subscription])).find(
          (event) => event.type === 'invoice.paid' && !events.some((old) => old.id === event.id),
        );
        assert.ok(renewal);
        const failed = await deliver(renewal);
        assert.equal(failed.status, 500);
        const [row] = await db<{ error: string | null; processed_at: Date | null }[]>`
          select error, processed_at from public.webhook_events where event_id = ${renewal.id}`;
        assert.match(row!.error ?? '', /simulated outage/);
        assert.equal(row!.processed_at, null);
      } finally {
        await db.unsafe(
          `drop trigger ${trigger} on public.invoices; drop function public.${trigger}();`,
        );
      }
      // The sandbox's own delivery retries (200 ms, 400 ms, …) and gets through now.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [row] = await db<{ processed_at: Date | null }[]>`
          select processed_at from public.webhook_events where event_id = ${renewal.id}`;
        if (row?.processed_at) break;
        if (Date.now() > deadline) throw new Error('the sandbox never redelivered the event');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal((await deliver(renewal)).body.result, 'duplicate');
      assert.equal((await state(user.account)).invoices, 2);
    });

    await t.step('a failed renewal leaves the invoice open and the plan past due', async () => {
      const response = await fetch(
        `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${user.subscription}/renew`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'outcome=failed',
        },
      );
      await response.body?.cancel();
      const about = await eventsAbout([user.subscription]);
      const failed = about.filter((event) => event.type === 'invoice.payment_failed');
      assert.equal(failed.length, 1);
      const pastDue = about.at(-1)!;
      assert.equal(pastDue.type, 'customer.subscription.updated');
      for (let i = 0; i < 5; i++) for (const event of [pastDue, failed[0]!]) await deliver(event);
      const after = await state(user.account);
      assert.equal(after.subscriptions[0]!.billing_status, 'past_due');
      assert.equal(after.invoices, 3);
      const [invoice] = await sql()`
        select status from public.invoices
        where billing_type = 1 and billing_id = ${(failed[0]!.data.object as { id: string }).id}`;
      assert.equal(invoice!.status, 'open');
    });

    await t.step('an abandoned checkout (checkout.session.expired) is applied once', async () => {
      const before = await state(user.account);
      const left = await billing.createCheckout({
        customerId: user.customer,
        unitAmount: 12900,
        currency: 'usd',
        interval: 'year',
        productName: 'Left behind',
        trialDays: 0,
        successUrl: 'http://localhost/success?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://localhost/cancel',
        metadata: { account_id: user.account },
      });
      await stripe.checkout.sessions.expire(left.id);
      const [expired] = (await eventsAbout([left.id])).filter(
        (event) => event.type === 'checkout.session.expired',
      );
      assert.ok(expired, 'the sandbox sent checkout.session.expired');
      // The stack's own function may have had the sandbox's delivery already: a copy under a
      // new id is applied here (not ignored), then only once.
      const copy = { ...expired, id: `evt_expired_${crypto.randomUUID().slice(0, 8)}` };
      assert.equal((await deliver(copy)).body.result, 'applied');
      assert.equal((await deliver(copy)).body.result, 'duplicate');
      assert.deepEqual(await state(user.account), before, 'the plan is untouched');
    });

    await t.step('a deleted subscription ends the plan', async () => {
      await billing.cancelNow(user.subscription);
      const [deleted] = (await eventsAbout([user.subscription])).filter(
        (event) => event.type === 'customer.subscription.deleted',
      );
      for (let i = 0; i < 5; i++) await deliver(deleted);
      const [subscription] = (await state(user.account)).subscriptions;
      assert.equal(subscription!.billing_status, 'canceled');
      assert.ok(subscription!.ends_at && subscription!.ends_at.getTime() <= Date.now());
    });
  } finally {
    await closeSql();
  }
});
