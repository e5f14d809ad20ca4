import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { until, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { paddleReplay } from '../paddle-webhook/testing.ts';
import { registrarSandbox } from '../../tests/support/registrar.ts';
import { purchaseCaller, refundAsStaff } from './testing.ts';

/**
 * Billing type 2: the cart paid through Paddle's overlay checkout, against the running stack
 * (its database, Paddle sandbox, whose notifications reach the stack's paddle-webhook function,
 * registrar, DNS sandbox and mail catcher). The stack's cron job wakes the deployed worker too,
 * so the steps wait for states rather than for their own calls.
 */
const env = useStackAsRuntimeEnv();
const paddle = overlayBillingFromEnv();
const replay = paddleReplay(env);
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});
const control = registrarSandbox({
  REGISTRAR_API_URL: env.REGISTRAR_API_URL!,
  REGISTRAR_USERNAME: env.REGISTRAR_USERNAME!,
  REGISTRAR_TOKEN: env.REGISTRAR_TOKEN!,
});
const { call, work } = purchaseCaller(env, () => paddle);

/**
 * `until` with this file's patience: the purchase worker and the payment sandboxes answer later
 * than a request does.
 */
const eventually = <T>(read: () => Promise<T | null | undefined>) =>
  until(read, { timeoutMs: 20_000, intervalMs: 150 });

/** Pays a transaction in the sandbox's overlay checkout frame, as Paddle.js posts it. */
async function payInOverlay(transactionId: string, email: string) {
  const paid = await fetch(`${env.PADDLE_API_BASE}/checkout/${transactionId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: env.PADDLE_CLIENT_TOKEN!,
      parent_origin: 'http://localhost:45173',
      email,
      country: 'US',
      postcode: '10001',
      cardNumber: '4242 4242 4242 4242',
      cardholder: 'Test Buyer',
      expiry: '12/34',
      cvc: '123',
    }),
  });
  assert.match(await paid.text(), /checkout\.completed/);
}

Deno.test('domain-purchase through Paddle (billing type 2)', async (t) => {
  try {
    const email = `paddle-buyer-${crypto.randomUUID().slice(0, 8)}@functions.test`;
    const { data, error } = await admin.auth.admin.createUser({
      email,
      password: `Pw-${crypto.randomUUID()}`,
      email_confirm: true,
    });
    if (error) throw error;
    const userId = data.user.id;
    const auth = await userAuthorization(env, userId);
    const name = `pdl${crypto.randomUUID().slice(0, 8)}.io`;
    await sql()`
      with cart as (
        insert into public.shopping_carts (user_id) values (${userId})
        on conflict (user_id) do update set user_id = excluded.user_id returning id)
      insert into public.cart_items (cart_id, domain, years) select id, ${name}, 2 from cart`;

    let orderId = '';
    let transactionId = '';
    await t.step('checkout: an order (16) and a Paddle transaction for the overlay', async () => {
      const answer = await call(auth, 'POST', '/checkout', { billing_type: 2 });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      orderId = answer.body.order_id;
      transactionId = answer.body.checkout.transaction_id;
      assert.equal(answer.body.checkout.billing_type, 2);
      assert.equal(
        answer.body.checkout.payment_url,
        `http://localhost:45173/paddle/payment?flow=domain-purchase&_ptxn=${transactionId}`,
      );
      assert.equal(
        answer.body.checkout.success_url,
        'http://localhost:45173/app/shopping-cart/success?session_id={CHECKOUT_SESSION_ID}',
      );
      assert.ok(answer.body.checkout.customer.auth_token);
      const [order] = await sql()<{ status: number; amount: string; billing_id: string }[]>`
        select status, amount::text, billing_id from public.orders where id = ${orderId}`;
      assert.deepEqual(order, { status: 16, amount: '8998', billing_id: transactionId });
      // .io at 44.99 a year: the yearly item, and the second year once.
      const transaction = await paddle.retrieveTransaction(transactionId);
      assert.deepEqual(
        transaction.items.map((item) => [
          item.price?.unitPrice.amount,
          item.price?.billingCycle?.interval ?? null,
        ]),
        [
          ['4499', 'year'],
          ['4499', null],
        ],
      );
      assert.equal(transaction.details?.totals?.grandTotal, '8998');
    });

    await t.step('paid: processing, then registered and verified; cart emptied', async () => {
      await payInOverlay(transactionId, email);
      await eventually(async () => {
        await work();
        const [order] = await sql()<{ status: number }[]>`
          select status from public.orders where id = ${orderId}`;
        return order!.status === 48 ? true : null;
      });
      const [domain] = await sql()<{ verification_status: string }[]>`
        select verification_status from public.domains where domain = ${name}`;
      assert.equal(domain!.verification_status, 'verified');
      const held = await control.domain(name);
      const years = (Date.parse(held!.expireDate) - Date.now()) / (365 * 86_400_000);
      assert.ok(years > 1.9 && years < 2.1, `registered for two years (${held!.expireDate})`);
      const [cart] = await sql()<{ count: number }[]>`
        select count(*)::int from public.cart_items i
        join public.shopping_carts c on c.id = i.cart_id where c.user_id = ${userId}`;
      assert.equal(cart!.count, 0);
      const [subscription] = await sql()<
        { type: string; hidden: boolean; amount: string; billing_type: number }[]
      >`
        select s.type, s.hidden, s.amount::text, s.billing_type from public.subscriptions s
        join public.purchased_domains d on d.billing_subscription_id = s.billing_id
        where d.order_id = ${orderId}`;
      assert.deepEqual(subscription, {
        type: 'shopping-cart',
        hidden: true,
        amount: '4499',
        billing_type: 2,
      });
    });

    const [bought] = await sql()<{ subscription_id: string }[]>`
      select billing_subscription_id as subscription_id from public.purchased_domains
      where order_id = ${orderId}`;
    const subscriptionId = bought!.subscription_id;
    const effects = async () => {
      const [row] = await sql()<Record<string, unknown>[]>`
        select
          (select status from public.orders where id = ${orderId}) as order_status,
          (select string_agg(status, ',') from public.purchased_domains
            where order_id = ${orderId}) as names,
          (select count(*)::int from public.subscriptions
            where billing_type = 2 and billing_id = ${subscriptionId}) as subscriptions,
          (select string_agg(billing_status, ',') from public.subscriptions
            where billing_type = 2 and billing_id = ${subscriptionId}) as subscription_status,
          (select string_agg(status || ':' || coalesce(order_id::text, '-'), ',')
            from public.invoices where billing_type = 2 and billing_id = ${transactionId})
            as invoices,
          (select count(*)::int from public.orders o join public.profiles p
            on p.personal_account_id = o.account_id where p.id = ${userId}) as orders`;
      return row!;
    };

    await t.step('replayed 5 times, newest first and as new events, one effect', async () => {
      const before = await effects();
      assert.deepEqual(before, {
        order_status: 48,
        names: 'registered',
        subscriptions: 1,
        subscription_status: 'active',
        invoices: `paid:${orderId}`,
        orders: 1,
      });
      const events = await replay.eventsAbout([transactionId, subscriptionId]);
      const types = events.map((event) => event.event_type);
      for (const type of ['transaction.paid', 'transaction.completed', 'subscription.created'])
        assert.ok(types.includes(type), `${type} in ${types.join(', ')}`);
      for (let round = 0; round < 5; round++)
        for (const event of [...events].reverse()) {
          // The same event again (a duplicate), and as another event id (the appliers' guard).
          assert.equal((await replay.deliver(event)).status, 200);
          const again = { ...event, event_id: `${event.event_id}_replay${round}` };
          assert.equal((await replay.deliver(again)).status, 200);
        }
      assert.deepEqual(await effects(), before);
    });

    const renew = async (outcome?: 'failed') => {
      const answer = await fetch(
        `${env.PADDLE_API_BASE}/_sandbox/subscriptions/${subscriptionId}/renew`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${env.PADDLE_API_KEY}` },
          body: JSON.stringify(outcome ? { outcome } : {}),
        },
      );
      assert.equal(answer.status, 200, await answer.text());
    };
    const names = async (status: string) =>
      (
        await sql()<{ status: string }[]>`
          select status from public.purchased_domains where order_id = ${orderId}`
      )[0]?.status === status
        ? true
        : null;
    const renewals = async () =>
      (
        await sql()<{ status: number }[]>`
          select o.status from public.orders o join public.profiles p
            on p.personal_account_id = o.account_id
          where p.id = ${userId} and o.purchase_source = 'domain-renewal' and o.billing_type = 2
          order by o.created_at`
      ).map((row) => row.status);

    await t.step('a paid renewal transaction renews the name at the registrar', async () => {
      const before = (await control.domain(name))!.expireDate;
      await renew();
      await eventually(async () => {
        await work();
        return (await control.domain(name))!.expireDate !== before ? names('registered') : null;
      });
      assert.deepEqual(await renewals(), [48]);
    });

    await t.step('a past-due renewal: renewal_failed, and the owner is told', async () => {
      await renew('failed');
      await eventually(async () => {
        await work();
        const [row] = await sql()<{ count: number }[]>`
          select count(*)::int from public.notifications
          where user_id = ${userId} and type = 'domain.renewal_failed'`;
        return row!.count === 1 ? true : null;
      });
      assert.equal(await names('renewal_failed'), true);
      assert.deepEqual(await renewals(), [48, 50]);
    });

    await t.step(
      'the registrar refusing every name cancels the subscription and refunds it once (51)',
      async () => {
        const other = `pdl${crypto.randomUUID().slice(0, 8)}.com`;
        await sql()`
          insert into public.cart_items (cart_id, domain, years)
          select id, ${other}, 1 from public.shopping_carts where user_id = ${userId}`;
        await control.failNext({ operation: 'register', domainName: other, error: 'unavailable' });
        const answer = await call(auth, 'POST', '/checkout', { billing_type: 2 });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        await payInOverlay(answer.body.checkout.transaction_id, email);
        const refusedOrder: string = answer.body.order_id;
        await eventually(async () => {
          await work();
          const [order] = await sql()<{ status: number }[]>`
            select status from public.orders where id = ${refusedOrder}`;
          return order!.status === 49 ? true : null;
        });
        const [row] = await sql()<{ status: string; subscription: string }[]>`
          select status, billing_subscription_id as subscription from public.purchased_domains
          where order_id = ${refusedOrder}`;
        assert.equal(row!.status, 'failed');
        // Cancelled at Paddle at once, and stored as Paddle answered (the webhook agrees later).
        await eventually(async () =>
          (await paddle.retrieveSubscription(row!.subscription)).status === 'canceled'
            ? true
            : null,
        );
        await eventually(async () => {
          const [stored] = await sql()<{ billing_status: string; ends_at: Date | null }[]>`
            select billing_status, ends_at from public.subscriptions
            where billing_type = 2 and billing_id = ${row!.subscription}`;
          return stored?.billing_status === 'canceled' && stored.ends_at ? true : null;
        });

        // The paid name is refunded once, through a refund adjustment on the order's Paddle
        // transaction; the order line says so and the order is refunded (51).
        const refundedTransaction: string = answer.body.checkout.transaction_id;
        const refunded = async () => {
          await work();
          const [state] = await sql()<
            { order_status: number; refund_id: string | null; refunded: string; amount: string }[]
          >`
            select o.status as order_status, d.refund_id, i.refunded_amount::text as refunded,
              i.amount::text as amount
            from public.orders o
            join public.purchased_domains d on d.order_id = o.id
            join public.order_items i on i.order_id = o.id and i.description = d.domain::text
            where o.id = ${refusedOrder}`;
          return state!.order_status === 51 ? state! : null;
        };
        const first = await eventually(refunded);
        assert.match(first.refund_id!, /^adj_/);
        assert.equal(first.refunded, first.amount);
        const [line] = await sql()<{ refund_reason: string }[]>`
          select refund_reason from public.order_items where order_id = ${refusedOrder}`;
        assert.match(line!.refund_reason, /not available/);
        const adjustments = await paddle.refunds(refundedTransaction);
        assert.deepEqual(
          adjustments.map((adjustment) => [adjustment.id, adjustment.totals?.total]),
          [[first.refund_id, first.amount]],
        );
        assert.equal(adjustments[0]!.reason, `${other}: ${line!.refund_reason}`);

        // A retry after the adjustment was made but before it was recorded (an answer lost, a
        // failed renewal change): the earlier adjustment is found, none is made again.
        // One statement, so the deployed worker (woken by cron) sees all of it or none.
        await sql()`
          with names as (
            update public.purchased_domains set refunded_at = null, refund_id = null
            where order_id = ${refusedOrder} returning 1),
          lines as (
            update public.order_items set refunded_amount = 0
            where order_id = ${refusedOrder} returning 1)
          update public.orders set status = 49 where id = ${refusedOrder}`;
        const again = await eventually(refunded);
        assert.deepEqual(again, first);
        assert.equal((await paddle.refunds(refundedTransaction)).length, 1);
      },
    );

    await t.step(
      'one name of two refused: refunded from its own extra year first, the renewal drops',
      async () => {
        const kept = `pdl${crypto.randomUUID().slice(0, 8)}.io`;
        const refused = `pdl${crypto.randomUUID().slice(0, 8)}.com`;
        await sql()`
          insert into public.cart_items (cart_id, domain, years)
          select id, d.domain, 2 from public.shopping_carts,
            unnest(${[kept, refused]}::text[]) as d(domain)
          where user_id = ${userId}`;
        await control.failNext({
          operation: 'register',
          domainName: refused,
          error: 'unavailable',
        });
        const answer = await call(auth, 'POST', '/checkout', { billing_type: 2 });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const order: string = answer.body.order_id;
        const transaction: string = answer.body.checkout.transaction_id;
        await payInOverlay(transaction, email);
        const refund = await eventually(async () => {
          await work();
          const [row] = await sql()<{ refund_id: string | null; amount: string }[]>`
            select d.refund_id, i.amount::text as amount
            from public.purchased_domains d
            join public.order_items i on i.order_id = d.order_id and i.description = d.domain::text
            where d.order_id = ${order} and d.domain = ${refused} and d.refunded_at is not null`;
          return row;
        });
        const [state] = await sql()<{ status: number; subscription: string }[]>`
          select o.status, d.billing_subscription_id as subscription from public.orders o
          join public.purchased_domains d on d.order_id = o.id and d.domain = ${kept}
          where o.id = ${order}`;
        assert.equal(state!.status, 48);
        const [adjustment, ...others] = await paddle.refunds(transaction);
        assert.equal(others.length, 0);
        assert.equal(adjustment!.id, refund.refund_id);
        assert.equal(adjustment!.totals?.total, refund.amount);
        // Its own extra year (`<name>: 1 more year`) in full, the rest from the yearly item.
        const lines = (await paddle.retrieveTransaction(transaction)).details!.lineItems;
        const own = lines.find((line) => line.product?.name.startsWith(`${refused}: `))!;
        assert.equal(adjustment!.items[0]!.itemId, own.id);
        assert.equal(adjustment!.items[0]!.amount, own.totals!.total);
        assert.equal(adjustment!.items.length, 2);
        // Renews the kept .io only (44.99), with no charge for the change.
        const subscription = await paddle.retrieveSubscription(state!.subscription);
        assert.equal(subscription.status, 'active');
        assert.equal(subscription.items[0]!.price.unitPrice.amount, '4499');
        assert.equal(subscription.customData?.kind, 'domain-purchase');
      },
    );

    await t.step(
      'staff refund an order: once Paddle approves, its renewal is cancelled, the name kept',
      async () => {
        const kept = `pdl${crypto.randomUUID().slice(0, 8)}.com`;
        await sql()`
          insert into public.cart_items (cart_id, domain, years)
          select id, ${kept}, 1 from public.shopping_carts where user_id = ${userId}`;
        const answer = await call(auth, 'POST', '/checkout', { billing_type: 2 });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const order: string = answer.body.order_id;
        const transaction: string = answer.body.checkout.transaction_id;
        await payInOverlay(transaction, email);
        await eventually(async () => {
          await work();
          const [row] = await sql()<{ status: number }[]>`
            select status from public.orders where id = ${order}`;
          return row!.status === 48 ? true : null;
        });
        const [bought] = await sql()<{ subscription: string; domain_id: string }[]>`
          select billing_subscription_id as subscription, domain_id from public.purchased_domains
          where order_id = ${order}`;
        const refunded = await refundAsStaff(env, order);
        assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
        assert.equal(refunded.body.order.refund_status, 'pending_approval');
        // Paddle may still reject it: until then the name renews as before.
        await work();
        assert.equal((await paddle.retrieveSubscription(bought!.subscription)).status, 'active');

        const [adjustment] = await paddle.refunds(transaction);
        await replay.decideRefund(adjustment!.id, 'approve');
        const state = async () => {
          const [row] = await sql()<Record<string, unknown>[]>`
            select o.status as order_status, o.refund_status, d.status,
              app.domain_work_due(d) as due, d.refund_amount, d.refund_id, d.domain_id, d.updated_at,
              (select refunded_amount::text from public.order_items i where i.order_id = o.id)
                as refunded_line,
              (select billing_status from public.subscriptions s
                where s.billing_type = 2 and s.billing_id = d.billing_subscription_id)
                as subscription
            from public.orders o join public.purchased_domains d on d.order_id = o.id
            where o.id = ${order}`;
          return { ...row! };
        };
        const stopped = await eventually(async () => {
          await work();
          const row = await state();
          return !row.due && row.subscription === 'canceled' ? row : null;
        });
        assert.equal((await paddle.retrieveSubscription(bought!.subscription)).status, 'canceled');
        assert.equal(stopped.order_status, 51);
        assert.equal(stopped.refund_status, 'approved');
        assert.equal(stopped.status, 'registered');
        assert.equal(stopped.domain_id, bought!.domain_id);
        const [domain] = await sql()<{ kind: string }[]>`
          select kind from public.domains where id = ${bought!.domain_id}`;
        assert.equal(domain!.kind, 'branded');
        assert.ok(await control.domain(kept), 'still registered at the registrar');
        // Staff's full refund only: no refund adjustment of the worker's.
        assert.equal(stopped.refund_id, null);
        assert.equal(stopped.refunded_line, '0');
        assert.deepEqual(
          (await paddle.refunds(transaction)).map((a) => [a.type, a.status]),
          [['full', 'approved']],
        );

        // The notifications again, and the worker again: nothing changes.
        for (const event of await replay.eventsAbout([adjustment!.id]))
          assert.equal((await replay.deliver(event)).status, 200);
        await work();
        assert.deepEqual(await state(), stopped);
        assert.equal((await paddle.refunds(transaction)).length, 1);
      },
    );
  } finally {
    await closeSql();
  }
});
