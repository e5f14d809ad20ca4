import assert from 'node:assert/strict';
import { closeSql, sql } from '../_shared/sql.ts';
import { until, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { createStripeWebhookHandler } from '../stripe-webhook/handler.ts';
import { webhookTesting } from '../stripe-webhook/testing.ts';
import { createKioskBillingHandler } from './handler.ts';
import { paddleReplay, paddleSubscriber } from '../paddle-webhook/testing.ts';

/**
 * kiosk-billing against the stack and its Stripe sandbox: staff refund a paid order and cancel
 * a subscription through the adapters, each audited; anyone else is refused.
 */
const env = useStackAsRuntimeEnv();
const kiosk = createKioskBillingHandler();
const { subscribedUser, stripe } = webhookTesting(env, createStripeWebhookHandler());
const STAFF = '00000000-0000-4000-8000-000000000105';

async function call(authorization: string, body: unknown) {
  const response = await kiosk(
    new Request('http://localhost/kiosk-billing', {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  // deno-lint-ignore no-explicit-any -- the answers have several shapes; each step reads its own
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

Deno.test('kiosk-billing: refund an order, cancel a subscription', async (t) => {
  try {
    const user = await subscribedUser();
    const staff = await userAuthorization(env, STAFF);
    const customer = await userAuthorization(env, user.userId);
    // The stack's own webhook delivery records the subscription and the paid order.
    const order = await until(async () => {
      const [row] = await sql()<{ id: string }[]>`
        select id from public.orders where account_id = ${user.account} and status = 48`;
      return row?.id;
    });
    const subscription = await until(async () => {
      const [row] = await sql()<{ id: string }[]>`
        select id from public.subscriptions where billing_id = ${user.subscription}`;
      return row;
    });

    await t.step('refuses whoever is not staff, and malformed requests', async () => {
      const refused = await call(customer, { action: 'refund_order', order_id: order });
      assert.equal(refused.status, 403);
      const unknown = await call(staff, { action: 'refund_everything' });
      assert.equal(unknown.status, 422);
      const bad = await call(staff, { action: 'refund_order', order_id: 'ord_1' });
      assert.equal(bad.status, 422);
    });

    await t.step('refunds a paid order at Stripe: 51, audited, not twice', async () => {
      const done = await call(staff, { action: 'refund_order', order_id: order });
      assert.equal(done.status, 200);
      assert.equal(done.body.order.status, 51);
      const [invoice] = (await stripe.invoices.list({ customer: user.customer })).data;
      const [payment] = (await stripe.invoicePayments.list({ invoice: invoice!.id })).data;
      const events = await stripe.events.list({ type: 'charge.refunded', limit: 100 });
      assert.ok(
        events.data.some(
          (event) =>
            (event.data.object as { payment_intent?: string }).payment_intent ===
            payment!.payment.payment_intent,
        ),
      );
      const again = await call(staff, { action: 'refund_order', order_id: order });
      assert.equal(again.status, 409);
      const [audit] = await sql()<
        { actor_id: string; subject_user_id: string; details: Record<string, unknown> }[]
      >`
        select actor_id, subject_user_id, details from public.kiosk_audit_log
        where action = 'order.refunded' and details ->> 'order_id' = ${order}`;
      assert.equal(audit!.actor_id, STAFF);
      assert.equal(audit!.subject_user_id, user.userId);
      assert.equal(audit!.details.amount, 12900);
    });

    await t.step('cancels a subscription now at Stripe, audited', async () => {
      const done = await call(staff, {
        action: 'cancel_subscription',
        subscription_id: subscription.id,
      });
      assert.equal(done.status, 200);
      assert.equal(done.body.subscription.billing_status, 'canceled');
      assert.equal((await stripe.subscriptions.retrieve(user.subscription)).status, 'canceled');
      const again = await call(staff, {
        action: 'cancel_subscription',
        subscription_id: subscription.id,
      });
      assert.equal(again.status, 409);
      const audits = await sql()`
        select 1 from public.kiosk_audit_log
        where action = 'subscription.cancelled' and details ->> 'subscription_id' = ${subscription.id}`;
      assert.equal(audits.length, 1);
    });
  } finally {
    await closeSql();
  }
});

Deno.test('kiosk-billing: cancel a Paddle subscription now, audited', async () => {
  try {
    const { db, paddle, subscriptionId } = await paddleSubscriber(env);
    const row = await until(async () => {
      const [found] = await db<{ id: string }[]>`
        select id from public.subscriptions where billing_type = 2 and billing_id = ${subscriptionId}`;
      return found;
    });
    const staff = await userAuthorization(env, STAFF);
    const done = await call(staff, { action: 'cancel_subscription', subscription_id: row.id });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.subscription.billing_status, 'canceled');
    assert.equal((await paddle.retrieveSubscription(subscriptionId)).status, 'canceled');
    const audits = await db`
      select 1 from public.kiosk_audit_log
      where action = 'subscription.cancelled' and details ->> 'subscription_id' = ${row.id}`;
    assert.equal(audits.length, 1);
  } finally {
    await closeSql();
  }
});

Deno.test(
  'kiosk-billing: refund a Paddle order — pending until Paddle approves, then 51',
  async (t) => {
    try {
      const { db, paddle, transactionId } = await paddleSubscriber(env);
      const { deliver, eventsAbout, decideRefund } = paddleReplay(env);
      const staff = await userAuthorization(env, STAFF);
      // The stack's own notifications make the paid transaction an order.
      const order = await until(async () => {
        const [row] = await db<{ id: string }[]>`
        select id from public.orders
        where billing_type = 2 and billing_id = ${transactionId} and status = 48`;
        return row?.id;
      });
      const orderState = async () => {
        const [row] = await db<{ status: number; refund_status: string | null }[]>`
        select status, refund_status from public.orders where id = ${order}`;
        return row!;
      };

      let adjustmentId = '';
      await t.step('a full refund adjustment, stored as pending, audited', async () => {
        const done = await call(staff, { action: 'refund_order', order_id: order });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.deepEqual(
          { status: done.body.order.status, refund_status: done.body.order.refund_status },
          { status: 48, refund_status: 'pending_approval' },
        );
        const [adjustment, ...others] = await paddle.refunds(transactionId);
        assert.equal(others.length, 0);
        assert.equal(adjustment!.type, 'full');
        assert.equal(adjustment!.status, 'pending_approval');
        assert.equal(adjustment!.totals?.total, '12900');
        adjustmentId = adjustment!.id;
        const audits = await db<{ details: { refund: string; refund_status: string } }[]>`
        select details from public.kiosk_audit_log
        where action = 'order.refunded' and details ->> 'order_id' = ${order}`;
        assert.deepEqual(
          audits.map((audit) => [audit.details.refund, audit.details.refund_status]),
          [[adjustmentId, 'pending_approval']],
        );
        // Asked again while Paddle reviews it: refused, nothing more at Paddle.
        const again = await call(staff, { action: 'refund_order', order_id: order });
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 'order_refund_pending');
        assert.equal((await paddle.refunds(transactionId)).length, 1);
      });

      await t.step('approved: adjustment.updated refunds the order (51), once', async () => {
        await decideRefund(adjustmentId, 'approve');
        await until(async () => ((await orderState()).status === 51 ? true : undefined));
        assert.deepEqual(await orderState(), { status: 51, refund_status: 'approved' });
        const [invoice] = await db<{ status: string }[]>`
        select status from public.invoices where billing_type = 2 and billing_id = ${transactionId}`;
        assert.equal(invoice!.status, 'refunded');
        // Every notification about the refund, replayed 5 times newest first: no effect more.
        const events = (await eventsAbout([adjustmentId])).reverse();
        assert.deepEqual(
          events.map((event) => event.event_type),
          ['adjustment.updated', 'adjustment.created'],
        );
        for (let round = 0; round < 5; round += 1)
          for (const event of events) {
            const replay = await deliver(event);
            assert.equal(replay.status, 200);
            assert.equal(replay.body.result, 'duplicate');
          }
        assert.deepEqual(await orderState(), { status: 51, refund_status: 'approved' });
        const refused = await call(staff, { action: 'refund_order', order_id: order });
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, 'order_already_refunded');
      });
    } finally {
      await closeSql();
    }
  },
);

Deno.test(
  'kiosk-billing: a Paddle order whose partial refund waits for approval is not refunded again',
  async () => {
    try {
      const { db, paddle, transactionId } = await paddleSubscriber(env);
      const staff = await userAuthorization(env, STAFF);
      const order = await until(async () => {
        const [row] = await db<{ id: string }[]>`
        select id from public.orders
        where billing_type = 2 and billing_id = ${transactionId} and status = 48`;
        return row?.id;
      });
      // A partial refund of one line (as the domain worker makes for a refused name), pending.
      const [line] = (await paddle.retrieveTransaction(transactionId)).details?.lineItems ?? [];
      await paddle.refund(transactionId, 'one name refused', [{ itemId: line!.id, amount: 100 }]);
      const refused = await call(staff, { action: 'refund_order', order_id: order });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'order_refund_pending');
      assert.equal((await paddle.refunds(transactionId)).length, 1);
      const [row] = await db<{ status: number; refund_status: string | null }[]>`
        select status, refund_status from public.orders where id = ${order}`;
      assert.deepEqual(row, { status: 48, refund_status: null });
    } finally {
      await closeSql();
    }
  },
);

Deno.test(
  'kiosk-billing: a Paddle refund rejected leaves the order paid, and can be asked again',
  async () => {
    try {
      const { db, paddle, transactionId } = await paddleSubscriber(env);
      const { decideRefund } = paddleReplay(env);
      const staff = await userAuthorization(env, STAFF);
      const order = await until(async () => {
        const [row] = await db<{ id: string }[]>`
        select id from public.orders
        where billing_type = 2 and billing_id = ${transactionId} and status = 48`;
        return row?.id;
      });
      const first = await call(staff, { action: 'refund_order', order_id: order });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const [rejected] = await paddle.refunds(transactionId);
      await decideRefund(rejected!.id, 'reject');
      const state = await until(async () => {
        const [row] = await db<{ status: number; refund_status: string }[]>`
        select status, refund_status from public.orders where id = ${order}`;
        return row?.refund_status === 'rejected' ? row : undefined;
      });
      assert.equal(state.status, 48);
      const second = await call(staff, { action: 'refund_order', order_id: order });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.order.refund_status, 'pending_approval');
      const refunds = await paddle.refunds(transactionId);
      assert.deepEqual(
        refunds.map((adjustment) => adjustment.status),
        ['rejected', 'pending_approval'],
      );
      await decideRefund(refunds[1]!.id, 'approve');
      await until(async () => {
        const [row] = await db<{ status: number }[]>`
        select status from public.orders where id = ${order}`;
        return row?.status === 51 ? true : undefined;
      });
    } finally {
      await closeSql();
    }
  },
);
