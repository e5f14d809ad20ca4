import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { createStripeWebhookHandler } from '../stripe-webhook/handler.ts';
import { webhookTesting } from '../stripe-webhook/testing.ts';
import { paddleSubscriber } from '../paddle-webhook/testing.ts';
import { reportOverage } from './handler.ts';

/**
 * The reporter called directly against the running stack and its Stripe sandbox: a closed
 * period's charge becomes one invoice item on the subscription, priced by overageAmountMinor;
 * a report repeated after a lost answer (the row still pending) creates nothing new.
 */
const env = useStackAsRuntimeEnv();
const { stripe, subscribedUser } = webhookTesting(env, createStripeWebhookHandler());

const call = (key: string) =>
  reportOverage(
    new Request('http://functions.test/overage-report', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    }),
  );

Deno.test('overage-report', async (t) => {
  const user = await subscribedUser();
  const db = sql();
  // The stack's cron job wakes the deployed reporter while a charge is due: off for this test,
  // so only these calls report.
  const [settings] = await db<{ report_url: string | null }[]>`
    select report_url from app.overage_settings`;
  await db`update app.overage_settings set report_url = null`;
  const [charge] = await db<{ id: string }[]>`
    insert into public.overage_charges (account_id, billing_type, billing_subscription_id,
      currency, period_starts_at, period_ends_at, units, total_units)
    values (${user.account}, 1, ${user.subscription}, 'USD', '2026-10-01T00:00:00Z',
      '2026-11-01T00:00:00Z', '{"max_api_credits": 150}', 150)
    returning id`;
  const row = async () =>
    (
      await db<{ status: string; amount: string; provider_item_id: string | null }[]>`
        select status, amount, provider_item_id from public.overage_charges
        where id = ${charge!.id}`
    )[0]!;

  try {
    await t.step('only the service role runs it', async () => {
      const refused = await call(env.SUPABASE_ANON_KEY);
      assert.equal(refused.status, 403);
      await refused.body?.cancel();
      assert.equal((await row()).status, 'pending');
    });

    await t.step('reports the charge as one invoice item of 2 per 100 units', async () => {
      const answer = await call(env.SUPABASE_SERVICE_ROLE_KEY);
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { reported: 1, failed: 0 });
      const reported = await row();
      assert.equal(reported.status, 'reported');
      assert.equal(Number(reported.amount), 300);
      const item = await stripe.invoiceItems.retrieve(reported.provider_item_id!);
      assert.equal(item.amount, 300);
      assert.equal(item.customer, user.customer);
      assert.equal(
        item.description,
        'Overage 2026-10-01 to 2026-11-01: 150 units over the plan limits',
      );
      assert.equal(item.metadata?.overage_charge_id, charge!.id);
    });

    await t.step('a report repeated after a lost answer bills nothing twice', async () => {
      const first = (await row()).provider_item_id;
      await db`update public.overage_charges
        set status = 'pending', provider_item_id = null, next_attempt_at = now()
        where id = ${charge!.id}`;
      const answer = await call(env.SUPABASE_SERVICE_ROLE_KEY);
      assert.deepEqual(await answer.json(), { reported: 1, failed: 0 });
      assert.equal((await row()).provider_item_id, first);
      // Nothing is due any more: the next run reports nothing.
      const idle = await call(env.SUPABASE_SERVICE_ROLE_KEY);
      assert.deepEqual(await idle.json(), { reported: 0, failed: 0 });
    });
  } finally {
    await db`delete from public.overage_charges where id = ${charge!.id}`;
    await db`update app.overage_settings set report_url = ${settings?.report_url ?? null}`;
    await closeSql();
  }
});

/** The one-time charges waiting for the subscription's next renewal that carry this charge id. */
async function paddleChargesOf(subscriptionId: string, chargeId: string): Promise<number> {
  const headers = { authorization: `Bearer ${env.PADDLE_API_KEY}` };
  const answer = await fetch(
    `${env.PADDLE_API_BASE}/subscriptions/${subscriptionId}?include=next_transaction`,
    { headers },
  );
  const { data } = (await answer.json()) as {
    data: { next_transaction: { details: { line_items: { price_id: string }[] } } | null };
  };
  let found = 0;
  for (const line of data.next_transaction?.details.line_items ?? []) {
    const price = await fetch(`${env.PADDLE_API_BASE}/prices/${line.price_id}`, { headers });
    const { data: entity } = (await price.json()) as {
      data: { custom_data: Record<string, string> | null };
    };
    if (entity.custom_data?.overage_charge_id === chargeId) found++;
  }
  return found;
}

Deno.test(
  'overage-report: a Paddle charge asked for before is looked up, not billed twice',
  async () => {
    const db = sql();
    const [settings] = await db<{ report_url: string | null }[]>`
    select report_url from app.overage_settings`;
    await db`update app.overage_settings set report_url = null`;
    let chargeId: string | undefined;
    try {
      const { account, subscriptionId } = await paddleSubscriber(env);
      const [charge] = await db<{ id: string }[]>`
      insert into public.overage_charges (account_id, billing_type, billing_subscription_id,
        currency, period_starts_at, period_ends_at, units, total_units)
      values (${account}, 2, ${subscriptionId}, 'USD', '2026-10-01T00:00:00Z',
        '2026-11-01T00:00:00Z', '{"max_api_credits": 250}', 250)
      returning id`;
      chargeId = charge!.id;
      const first = await call(env.SUPABASE_SERVICE_ROLE_KEY);
      assert.deepEqual(await first.json(), { reported: 1, failed: 0 });
      assert.equal(await paddleChargesOf(subscriptionId, chargeId), 1);
      const [asked] = await db<{ provider_requested_at: Date | null }[]>`
      select provider_requested_at from public.overage_charges where id = ${chargeId}`;
      assert.ok(asked!.provider_requested_at, 'the call is recorded before it is made');

      // The worker died after Paddle took the charge, before recording it: the claim is due again.
      await db`update public.overage_charges
      set status = 'pending', provider_item_id = null, reported_at = null, next_attempt_at = now()
      where id = ${chargeId}`;
      const again = await call(env.SUPABASE_SERVICE_ROLE_KEY);
      assert.deepEqual(await again.json(), { reported: 1, failed: 0 });
      assert.equal(await paddleChargesOf(subscriptionId, chargeId), 1);
      const [row] = await db<{ status: string; provider_item_id: string }[]>`
      select status, provider_item_id from public.overage_charges where id = ${chargeId}`;
      assert.deepEqual(row, { status: 'reported', provider_item_id: subscriptionId });
    } finally {
      if (chargeId) await db`delete from public.overage_charges where id = ${chargeId}`;
      await db`update app.overage_settings set report_url = ${settings?.report_url ?? null}`;
      await closeSql();
    }
  },
);
