import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { until, useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { ALREADY_SUBSCRIBED, createBillingHandler } from './handler.ts';
import { applyDueDowngrades } from './lifecycle.ts';

/**
 * The handler called directly against the running stack and its Stripe and Paddle sandboxes;
 * each sandbox delivers the checkout's events to the stack's webhook function for it, as the
 * provider would.
 */
const env = useStackAsRuntimeEnv();
const billing = createBillingHandler({
  billing: cardBillingFromEnv,
  paddle: overlayBillingFromEnv,
  defaultBillingType: () => '1',
  db: sql,
  returnOrigins: () => 'http://localhost:*',
});
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

async function call(
  authorization: string,
  method: string,
  path: string,
  body?: unknown,
  origin = 'http://localhost:45173',
) {
  const response = await billing(
    new Request(`http://localhost/billing${path}`, {
      method,
      headers: { authorization, origin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  // deno-lint-ignore no-explicit-any -- the answers have several shapes; each step reads its own
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function newUser() {
  const { data, error } = await admin.auth.admin.createUser({
    email: `billing-${crypto.randomUUID().slice(0, 8)}@functions.test`,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (error) throw error;
  return userAuthorization(env, data.user.id);
}

/** The sandbox's controls (the clock reaching a period end, a card going bad). */
async function sandbox(path: string, body: unknown) {
  const response = await fetch(`${env.PADDLE_API_BASE}/_sandbox${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.PADDLE_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
  return await response.json();
}

async function paddleSubscriptionId(user: string): Promise<string> {
  const state = await call(user, 'GET', '/subscriptions?billing_type=2');
  const { data } = await admin
    .from('subscriptions')
    .select('billing_id')
    .eq('id', state.body.data.current.id)
    .single();
  return data!.billing_id as string;
}

/** Pays a transaction in the sandbox's overlay frame with the 4242 card. */
async function payInOverlay(transactionId: string) {
  const paid = await fetch(`${env.PADDLE_API_BASE}/checkout/${transactionId}/pay`, {
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
  const page = await paid.text();
  if (!/checkout\.completed/.test(page)) throw new Error(`not paid: ${page.slice(0, 300)}`);
}

Deno.test('billing: subscribe with a card, see the plan, cancel and resume', async (t) => {
  try {
    const user = await newUser();
    const order = {
      billing_type: 1,
      subscription: 'pro',
      interval: 'yearly',
      currency: 'USD',
      type: 'default',
      trial: false,
    };

    await t.step('refuses an unknown plan, another billing type and a foreign origin', async () => {
      assert.equal(
        (await call(user, 'POST', '/new-subscription', { ...order, subscription: 'nope' })).status,
        422,
      );
      assert.equal(
        (await call(user, 'POST', '/new-subscription', { ...order, billing_type: 3 })).status,
        422,
      );
      const foreign = await call(user, 'POST', '/new-subscription', order, 'https://evil.example');
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'origin_not_allowed');
    });

    const answer = await call(user, 'POST', '/new-subscription', order);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const checkout = answer.body.checkout;
    assert.match(checkout.transaction_id, /^cs_test_/);
    assert.match(checkout.customer.id, /^cus_/);
    assert.equal(
      checkout.success_url,
      'http://localhost:45173/app/settings/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    );

    await t.step(
      'the checkout is pending until paid, then shows the plan once the webhook ran',
      async () => {
        const pending = await call(user, 'GET', `/checkout/${checkout.transaction_id}`);
        assert.deepEqual(pending.body, { status: 'open', subscription: null });
        const paid = await fetch(checkout.payment_url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            cardNumber: '4242 4242 4242 4242',
            cardExpiry: '12 / 34',
            cardCvc: '123',
          }),
        });
        await paid.body?.cancel();
        assert.equal(
          paid.headers.get('location'),
          `http://localhost:45173/app/settings/subscription/success?session_id=${checkout.transaction_id}`,
        );
        const done = await until(async () => {
          const status = await call(user, 'GET', `/checkout/${checkout.transaction_id}`);
          return status.body.subscription ? status.body : null;
        });
        assert.equal(done.status, 'complete');
        assert.equal(done.subscription.name, 'pro');
        assert.equal(done.subscription.billing_status, 'active');
        assert.equal(done.subscription.ends_at, null);
      },
    );

    await t.step('another user cannot read that checkout', async () => {
      const stranger = await newUser();
      assert.equal(
        (await call(stranger, 'GET', `/checkout/${checkout.transaction_id}`)).status,
        404,
      );
      assert.equal(
        (await call(stranger, 'DELETE', '/settings/subscription', { billing_type: 1 })).status,
        404,
      );
    });

    await t.step('a subscriber cannot check out a second plan', async () => {
      const again = await call(user, 'POST', '/new-subscription', order);
      assert.equal(again.status, 422);
      assert.deepEqual(again.body.errors, { subscription: [ALREADY_SUBSCRIBED] });
    });

    await t.step(
      'a plan with force_billing_address waits for the address at Stripe too',
      async () => {
        const stranger = await newUser();
        const business = { ...order, subscription: 'business' };
        const refused = await call(stranger, 'POST', '/new-subscription', business);
        assert.equal(refused.status, 422);
        assert.ok(refused.body.errors.billing_address);
        const saved = await call(stranger, 'PUT', '/vatinfo', {
          billing_type: 1,
          address: { line1: '1 Main St', country: 'DE', postal_code: '10115' },
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const allowed = await call(stranger, 'POST', '/new-subscription', business);
        assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
        assert.match(allowed.body.checkout.transaction_id, /^cs_/);
      },
    );

    await t.step('cancel at the period end, then resume', async () => {
      const cancelled = await call(user, 'DELETE', '/settings/subscription', { billing_type: 1 });
      assert.equal(cancelled.status, 200);
      assert.ok(cancelled.body.subscription.ends_at);
      assert.equal(cancelled.body.subscription.ends_at, cancelled.body.subscription.period_ends_at);
      const resumed = await call(user, 'PUT', '/settings/subscription/resume');
      assert.equal(resumed.status, 200);
      assert.equal(resumed.body.subscription.ends_at, null);
    });
  } finally {
    await closeSql();
  }
});

Deno.test(
  'billing: subscribe through the Paddle overlay, change plan, fall past due and pay, cancel',
  async (t) => {
    try {
      const user = await newUser();
      const order = {
        billing_type: 2,
        subscription: 'pro',
        interval: 'monthly',
        currency: 'USD',
        type: 'default',
        trial: false,
      };
      const answer = await call(user, 'POST', '/new-subscription', order);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const checkout = answer.body.checkout;
      assert.equal(checkout.billing_type, 2);
      assert.match(checkout.transaction_id, /^txn_[a-z0-9]{26}$/);
      assert.match(checkout.customer.id, /^ctm_[a-z0-9]{26}$/);
      assert.match(checkout.customer.auth_token, /^pca_/);
      assert.match(checkout.prices[0].price_id, /^pri_[a-z0-9]{26}$/);
      assert.equal(
        checkout.payment_url,
        `http://localhost:45173/paddle/payment?_ptxn=${checkout.transaction_id}`,
      );

      await t.step(
        'the transaction is open until paid in the overlay, then shows the plan',
        async () => {
          const pending = await call(user, 'GET', `/checkout/${checkout.transaction_id}`);
          assert.deepEqual(pending.body, { status: 'open', subscription: null });
          const paid = await fetch(
            `${env.PADDLE_API_BASE}/checkout/${checkout.transaction_id}/pay`,
            {
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
            },
          );
          assert.match(await paid.text(), /checkout\.completed/);
          const done = await until(async () => {
            const status = await call(user, 'GET', `/checkout/${checkout.transaction_id}`);
            return status.body.subscription ? status.body : null;
          });
          assert.equal(done.status, 'complete');
          assert.equal(done.subscription.name, 'pro');
          assert.equal(done.subscription.billing_status, 'active');
        },
      );

      await t.step('another user cannot read that transaction', async () => {
        const stranger = await newUser();
        assert.equal(
          (await call(stranger, 'GET', `/checkout/${checkout.transaction_id}`)).status,
          404,
        );
      });

      await t.step('a plan with force_billing_address waits for the billing address', async () => {
        const stranger = await newUser();
        const refused = await call(stranger, 'POST', '/new-subscription', {
          ...order,
          subscription: 'business',
        });
        assert.equal(refused.status, 422);
        assert.ok(refused.body.errors.billing_address);
        const saved = await call(stranger, 'PUT', '/vatinfo', {
          address: { line1: '1 Main St', country: 'DE', postal_code: '10115' },
          tax_id_type: 'eu_vat',
          tax_id: 'DE123456789',
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const allowed = await call(stranger, 'POST', '/new-subscription', {
          ...order,
          subscription: 'business',
        });
        assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
      });

      await t.step('a cancel naming the other provider finds no such subscription', async () => {
        const wrong = await call(user, 'DELETE', '/settings/subscription', { billing_type: 1 });
        assert.equal(wrong.status, 404);
      });

      await t.step(
        'a plan change waits while a refund of the subscription is under review',
        async () => {
          // The trial ends first (the sandbox's clock control): a trial changes plan for free.
          await sandbox(`/subscriptions/${await paddleSubscriptionId(user)}/renew`, {});
          const state = await call(user, 'GET', '/subscriptions?billing_type=2');
          const renewal = await until(async () => {
            const { data } = await admin
              .from('invoices')
              .select('billing_id')
              .eq('subscription_id', state.body.data.current.id)
              .gt('amount', 0)
              .not('paid_at', 'is', null);
            return data?.[0]?.billing_id ?? null;
          });
          const created = await fetch(`${env.PADDLE_API_BASE}/adjustments`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${env.PADDLE_API_KEY}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              action: 'refund',
              type: 'full',
              transaction_id: renewal,
              reason: 'goodwill',
            }),
          });
          const refund = (await created.json()) as {
            data?: { id: string; status: string };
            error?: unknown;
          };
          assert.equal(refund.data?.status, 'pending_approval', JSON.stringify(refund));
          const refused = await call(user, 'PUT', '/settings/subscription', {
            ...order,
            interval: 'yearly',
          });
          assert.equal(refused.status, 406, JSON.stringify(refused.body));
          assert.equal(refused.body.message, MESSAGES.subscriptionRefundPending);
          const unchanged = await call(user, 'GET', '/subscriptions?billing_type=2');
          assert.equal(unchanged.body.data.current.interval, 'monthly');
          // Paddle's review turns it down: the change goes through (the next step).
          await sandbox(`/adjustments/${refund.data!.id}/reject`, {});
        },
      );

      await t.step('an upgrade is previewed and charged now, prorated by Paddle', async () => {
        const preview = await call(
          user,
          'GET',
          '/settings/subscription/preview?subscription=pro&interval=yearly',
        );
        assert.equal(preview.status, 200, JSON.stringify(preview.body));
        assert.equal(preview.body.change, 'upgrade');
        assert.ok(preview.body.amount_due > 0);
        assert.ok(preview.body.amount_due <= preview.body.plan.amount);
        assert.ok(preview.body.lines.some((line: { amount: number }) => line.amount < 0));
        const updated = await call(user, 'PUT', '/settings/subscription', {
          ...order,
          interval: 'yearly',
        });
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        assert.equal(updated.body.change, 'upgrade');
        assert.equal(updated.body.subscription.interval, 'yearly');
        // The upgrade's invoice arrives by webhook.
        await until(async () => {
          const { data } = await admin
            .from('invoices')
            .select('amount')
            .eq('billing_type', 2)
            .eq('amount', preview.body.amount_due);
          return data && data.length > 0 ? data : null;
        });
      });

      await t.step('a downgrade waits as the pending one, and can be dropped', async () => {
        const downgrade = await call(user, 'PUT', '/settings/subscription', order);
        assert.equal(downgrade.status, 200, JSON.stringify(downgrade.body));
        assert.equal(downgrade.body.change, 'downgrade');
        assert.equal(downgrade.body.subscription.interval, 'yearly');
        assert.equal(downgrade.body.future.interval, 'monthly');
        assert.equal(
          downgrade.body.future.period_starts_at,
          downgrade.body.subscription.period_ends_at,
        );
        const listed = await call(user, 'GET', '/subscriptions?billing_type=2');
        assert.equal(listed.body.data.current.interval, 'yearly');
        assert.equal(listed.body.data.future[0].interval, 'monthly');
        assert.equal(
          (await call(user, 'GET', '/subscriptions?billing_type=1')).body.data.current,
          null,
        );
        const kept = await call(user, 'DELETE', '/settings/subscription/scheduled');
        assert.equal(kept.status, 200);
        assert.equal(kept.body.future, null);
        assert.equal((await call(user, 'DELETE', '/settings/subscription/scheduled')).status, 404);
      });

      await t.step('a declined renewal is past due; paying it restores the plan', async () => {
        const id = await paddleSubscriptionId(user);
        await sandbox(`/subscriptions/${id}/renew`, { outcome: 'failed' });
        await until(async () => {
          const state = await call(user, 'GET', '/settings/subscription');
          return state.body.subscription.billing_status === 'past_due' ? state : null;
        });
        // An upgrade now is refused as the spec's 402.
        const refused = await call(user, 'PUT', '/settings/subscription', {
          ...order,
          subscription: 'business',
          interval: 'yearly',
        });
        assert.equal(refused.status, 402);
        const pay = await call(user, 'POST', '/settings/subscription/pay', {});
        assert.equal(pay.status, 200, JSON.stringify(pay.body));
        assert.equal(pay.body.data.billing_type, 2);
        assert.equal(
          pay.body.data.payment_url,
          `http://localhost:45173/paddle/payment?flow=invoice-payment&_ptxn=${pay.body.data.transaction_id}`,
        );
        await payInOverlay(pay.body.data.transaction_id);
        await until(async () => {
          const state = await call(user, 'GET', '/settings/subscription');
          return state.body.subscription.billing_status === 'active' ? state : null;
        });
        assert.equal((await call(user, 'POST', '/settings/subscription/pay', {})).status, 404);
        // The renewal's invoice, now paid, downloads as Paddle's PDF.
        const { data: invoice } = await admin
          .from('invoices')
          .select('id')
          .eq('billing_id', pay.body.data.transaction_id)
          .single();
        const pdf = await billing(
          new Request(`http://localhost/billing/invoices/${invoice!.id}/pdf`, {
            headers: { authorization: user },
          }),
        );
        assert.equal(pdf.status, 200);
        assert.equal(pdf.headers.get('content-type'), 'application/pdf');
        assert.equal(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5)), '%PDF-');
      });

      await t.step('a due downgrade is applied before the renewal, which bills it', async () => {
        const scheduled = await call(user, 'PUT', '/settings/subscription', order);
        assert.equal(scheduled.body.future.interval, 'monthly');
        // Not due within a day (the period ends in a year): it stays pending.
        await applyDueDowngrades(sql(), overlayBillingFromEnv(), 86_400_000);
        const pending = await call(user, 'GET', '/settings/subscription');
        assert.equal(pending.body.future.interval, 'monthly');
        assert.equal(pending.body.subscription.interval, 'yearly');
        const id = await paddleSubscriptionId(user);
        // The cron's window reaching the period end (here: any window past it).
        assert.ok(
          (await applyDueDowngrades(sql(), overlayBillingFromEnv(), 400 * 86_400_000)) >= 1,
        );
        const state = await call(user, 'GET', '/settings/subscription');
        assert.equal(state.body.subscription.interval, 'monthly');
        assert.equal(state.body.future, null);
        const invoices = () =>
          admin
            .from('invoices')
            .select('amount, status, billing_id')
            .eq('billing_type', 2)
            .eq('account_id', state.body.subscription.account_id);
        const before = new Set(((await invoices()).data ?? []).map((row) => row.billing_id));
        await sandbox(`/subscriptions/${id}/renew`, {});
        const renewal = await until(async () => {
          const { data } = await invoices();
          const added = (data ?? []).find((row) => !before.has(row.billing_id));
          return added?.status === 'paid' ? added : null;
        });
        assert.equal(renewal.amount, state.body.subscription.amount);
      });

      await t.step(
        'the payment method is updated through a zero-value overlay checkout',
        async () => {
          const method = await call(
            user,
            'GET',
            '/settings/payment-method?return_path=/app/settings/payment-method',
          );
          assert.equal(method.status, 200, JSON.stringify(method.body));
          assert.equal(method.body.data.billing_type, 2);
          assert.match(method.body.data.payment_url, /flow=payment-method-update&return=/);
        },
      );

      await t.step('cancel at the period end, resume, then cancel now', async () => {
        const state = await call(user, 'GET', '/settings/subscription');
        assert.equal(state.body.subscription.billing_type, 2);
        const cancelled = await call(user, 'DELETE', '/settings/subscription', { billing_type: 2 });
        assert.equal(cancelled.status, 200);
        assert.equal(
          cancelled.body.subscription.ends_at,
          cancelled.body.subscription.period_ends_at,
        );
        const resumed = await call(user, 'PUT', '/settings/subscription/resume');
        assert.equal(resumed.body.subscription.ends_at, null);
        const ended = await call(user, 'DELETE', '/settings/subscription/now', { billing_type: 2 });
        assert.equal(ended.status, 200);
        assert.equal(ended.body.subscription.billing_status, 'canceled');
        assert.ok(new Date(ended.body.subscription.ends_at).getTime() <= Date.now());
      });
    } finally {
      await closeSql();
    }
  },
);
