import assert from 'node:assert/strict';
import type Stripe from 'stripe';
import { billingDocumentsFromEnv } from '../_shared/billing/documents.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv } from '../_shared/testing.ts';
import { createStripeWebhookHandler } from './handler.ts';
import { webhookTesting } from './testing.ts';

/**
 * Payment-method, invoice, order and refund events, each delivered 5 times and newest first
 * (the stack's sandbox also delivers them to its own function meanwhile): one effect each, and
 * never a step back.
 */
const env = useStackAsRuntimeEnv();
const webhook = createStripeWebhookHandler();
const { deliver, subscribedUser, eventsAbout, stripe } = webhookTesting(env, webhook);
const documents = billingDocumentsFromEnv();

const card = (number: string, expiry = '12/34') =>
  new URLSearchParams({ cardNumber: number, cardExpiry: expiry, cardCvc: '123' });

async function post(url: string, body: URLSearchParams, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  await response.body?.cancel();
  return response.status;
}

/** Every event delivered 5 times, newest first each round; all answered 200. */
async function replay(events: Stripe.Event[]) {
  for (let round = 0; round < 5; round++)
    for (const event of [...events].reverse()) assert.equal((await deliver(event)).status, 200);
}

async function card_on_file(account: string) {
  const [row] = await sql()<
    { pm_type: string; pm_last_four: string; pm_expiration: string; pm_country: string }[]
  >`select pm_type, pm_last_four, pm_expiration, pm_country from public.billing_customers
    where account_id = ${account} and billing_type = 1`;
  return row;
}

async function orders(account: string) {
  const rows = await sql()<{ billing_id: string; status: number; amount: string; items: number }[]>`
    select o.billing_id, o.status, o.amount::text,
      (select count(*)::int from public.order_items i where i.order_id = o.id) as items
    from public.orders o where o.account_id = ${account} order by o.created_at`;
  return [...rows];
}

Deno.test('stripe-webhook: payment methods, orders and refunds', async (t) => {
  try {
    const user = await subscribedUser();
    const [invoice] = (await stripe.invoices.list({ customer: user.customer })).data;
    assert.ok(invoice);

    await t.step('the checkout card is on file once, from any number of deliveries', async () => {
      const events = (await eventsAbout([user.customer])).filter((event) =>
        ['payment_method.attached', 'customer.updated'].includes(event.type),
      );
      assert.equal(events.length, 2);
      // With the checkout's own event, which makes the billing customer row they update.
      const checkout = (await eventsAbout([user.session])).filter(
        (event) => event.type === 'checkout.session.completed',
      );
      await replay([...checkout, ...events]);
      assert.deepEqual(await card_on_file(user.account), {
        pm_type: 'visa',
        pm_last_four: '4242',
        pm_expiration: '12/2034',
        pm_country: 'US',
      });
    });

    await t.step('a paid invoice is one paid order with its item', async () => {
      const paid = (await eventsAbout([invoice.id])).filter((e) => e.type === 'invoice.paid');
      await replay(paid);
      assert.deepEqual(await orders(user.account), [
        { billing_id: invoice.id, status: 48, amount: '12900', items: 1 },
      ]);
    });

    await t.step('a setup-mode checkout replaces the card; a late old event keeps it', async () => {
      const before = new Set((await eventsAbout([user.customer])).map((event) => event.id));
      const session = await documents.createPaymentMethodCheckout({
        customerId: user.customer,
        successUrl: 'http://localhost/app/settings/payment-method?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'http://localhost/app/settings/payment-method',
        metadata: { account_id: user.account },
      });
      assert.equal(await post(session.url!, card('5555555555554444', '03/33')), 303);
      const fresh = (await eventsAbout([user.customer])).filter((event) => !before.has(event.id));
      assert.deepEqual([...new Set(fresh.map((event) => event.type))].sort(), [
        'checkout.session.completed',
        'customer.subscription.updated',
        'customer.updated',
        'payment_method.attached',
        'setup_intent.succeeded',
      ]);
      await replay(fresh);
      const expected = {
        pm_type: 'mastercard',
        pm_last_four: '4444',
        pm_expiration: '03/2033',
        pm_country: 'US',
      };
      assert.deepEqual(await card_on_file(user.account), expected);
      const old = (await eventsAbout([user.customer])).find(
        (event) => before.has(event.id) && event.type === 'payment_method.attached',
      );
      assert.ok(old);
      await deliver({ ...old, id: `${old.id}_late` });
      assert.deepEqual(await card_on_file(user.account), expected);
    });

    await t.step(
      'a refund makes the order refunded (51), and a replayed payment keeps it',
      async () => {
        await documents.refundInvoice(invoice.id, null);
        const refunded = (await eventsAbout([user.customer])).filter(
          (event) => event.type === 'charge.refunded',
        );
        assert.equal(refunded.length, 1);
        await replay(refunded);
        const paid = (await eventsAbout([invoice.id])).filter((e) => e.type === 'invoice.paid');
        await replay(paid);
        const [row] = await sql()`
        select status from public.invoices where billing_type = 1 and billing_id = ${invoice.id}`;
        assert.equal(row!.status, 'refunded');
        assert.deepEqual(
          (await orders(user.account)).map((order) => order.status),
          [51],
        );
      },
    );

    await t.step(
      'a failed renewal is a failed order (50); paying it restores the plan',
      async () => {
        assert.equal(
          await post(
            `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${user.subscription}/renew`,
            new URLSearchParams({ outcome: 'failed' }),
            { authorization: `Bearer ${env.STRIPE_SECRET_KEY}` },
          ),
          200,
        );
        const subscription = await stripe.subscriptions.retrieve(user.subscription);
        const open = await stripe.invoices.retrieve(subscription.latest_invoice as string);
        const failing = (await eventsAbout([user.subscription])).filter(
          (event) =>
            (event.data.object as { id: string }).id === open.id ||
            (event.type === 'customer.subscription.updated' &&
              (event.data.object as { status: string }).status === 'past_due'),
        );
        await replay(failing);
        assert.deepEqual(
          (await orders(user.account)).map((order) => [order.billing_id, order.status]),
          [
            [invoice.id, 51],
            [open.id, 50],
          ],
        );

        const seen = new Set((await eventsAbout([user.subscription])).map((event) => event.id));
        assert.equal(await post(open.hosted_invoice_url!, card('4242424242424242')), 200);
        const paying = (await eventsAbout([user.subscription])).filter((e) => !seen.has(e.id));
        assert.deepEqual(paying.map((event) => event.type).sort(), [
          'customer.subscription.updated',
          'invoice.paid',
        ]);
        await replay(paying);
        await replay(failing);
        const [plan] = await sql()`
        select billing_status from public.subscriptions where billing_id = ${user.subscription}`;
        assert.equal(plan!.billing_status, 'active');
        assert.deepEqual(
          (await orders(user.account)).map((order) => [order.billing_id, order.status]),
          [
            [invoice.id, 51],
            [open.id, 48],
          ],
        );
      },
    );
  } finally {
    await closeSql();
  }
});
