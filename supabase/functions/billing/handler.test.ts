import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { ALREADY_SUBSCRIBED, createBillingHandler } from './handler.ts';
import { PADDLE_NOT_SUPPORTED } from './lifecycle.ts';

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

async function until<T>(read: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
  'billing: subscribe through the Paddle overlay, cancel, resume and cancel now',
  async (t) => {
    try {
      const user = await newUser();
      const order = {
        billing_type: 2,
        subscription: 'pro',
        interval: 'yearly',
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

      await t.step('plan changes are refused for a Paddle subscription, for now', async () => {
        const update = await call(user, 'PUT', '/settings/subscription', {
          ...order,
          subscription: 'business',
        });
        assert.equal(update.status, 406);
        assert.equal(update.body.message, PADDLE_NOT_SUPPORTED);
        assert.equal(
          (await call(user, 'GET', '/settings/subscription/preview?subscription=business')).status,
          406,
        );
        assert.equal((await call(user, 'DELETE', '/settings/subscription/scheduled')).status, 406);
        // A cancel naming the other provider finds no such subscription.
        const wrong = await call(user, 'DELETE', '/settings/subscription', { billing_type: 1 });
        assert.equal(wrong.status, 404);
        const coupon = await call(user, 'POST', '/new-subscription', { ...order, coupon: 'X' });
        assert.equal(coupon.status, 422);
      });

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
