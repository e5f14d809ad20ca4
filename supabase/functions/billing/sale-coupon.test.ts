import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { cardBillingFromEnv, stripeSdk } from '../_shared/billing/stripe.ts';
import { closeSql, sql } from '../_shared/sql.ts';
import { useStackAsRuntimeEnv, userAuthorization } from '../_shared/testing.ts';
import { BLACK_FRIDAY_2024_COUPON } from '../../../shared/src/sale-calendar.ts';
import { createBillingHandler } from './handler.ts';

/**
 * The Black Friday coupon against the running stack (its Stripe sandbox prices the checkout): it
 * comes off yearly plans during the configured sale's phases only, up to the last second of Cyber
 * Monday, and its lookup answers 404 outside the sale so the portal forgets it.
 */
const env = useStackAsRuntimeEnv();
const stripe = stripeSdk(env.STRIPE_SECRET_KEY!, env.STRIPE_API_BASE);
const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

/** A sale in 2030 (SALE_CALENDAR's format), so the test does not depend on today. */
const CALENDAR = JSON.stringify({
  preSaleStartsAt: '2030-11-18T00:00:00Z',
  blackFridayStartsAt: '2030-11-25T00:00:00Z',
  postBlackFridayStartsAt: '2030-11-30T00:00:00Z',
  cyberMondayStartsAt: '2030-12-02T00:00:00Z',
  saleEndsAt: '2030-12-03T00:00:00Z',
});

/** The billing function as it runs at `now`. */
const at = (now: string) =>
  createBillingHandler({
    billing: cardBillingFromEnv,
    paddle: overlayBillingFromEnv,
    defaultBillingType: () => '1',
    db: sql,
    returnOrigins: () => 'http://localhost:*',
    now: () => new Date(now),
    saleCalendar: () => CALENDAR,
  });

async function newUserAuth(): Promise<string> {
  const email = `sale-${crypto.randomUUID().slice(0, 8)}@functions.test`;
  const password = `Pw-${crypto.randomUUID()}`;
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error) throw error;
  return await userAuthorization(env, data.user.id);
}

async function call(now: string, auth: string, method: string, path: string, body?: unknown) {
  const response = await at(now)(
    new Request(`http://localhost/billing${path}`, {
      method,
      headers: {
        authorization: auth,
        origin: 'http://localhost:45173',
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What a checkout of Pro at `now` charges today, and the coupon it carries. */
async function checkout(now: string, interval: 'monthly' | 'yearly') {
  const auth = await newUserAuth();
  const answer = await call(now, auth, 'POST', '/new-subscription', {
    billing_type: 1,
    subscription: 'pro',
    interval,
    currency: 'USD',
    type: 'default',
    trial: false,
    coupon: BLACK_FRIDAY_2024_COUPON,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const data = answer.body.checkout as { discount_code: string | null; transaction_id: string };
  const session = await stripe.checkout.sessions.retrieve(data.transaction_id);
  return { coupon: data.discount_code, total: session.amount_total };
}

Deno.test('billing: the sale coupon, yearly plans only, during the sale only', async (t) => {
  try {
    await t.step('the lookup answers during the sale, to its last second, then 404', async () => {
      const auth = await newUserAuth();
      const path = `/coupon/${BLACK_FRIDAY_2024_COUPON}`;
      assert.equal((await call('2030-11-17T23:59:59Z', auth, 'GET', path)).status, 404);
      const found = await call('2030-11-18T00:00:00Z', auth, 'GET', path);
      assert.equal(found.status, 200);
      assert.equal(found.body.percent_off, 30);
      assert.equal((await call('2030-12-02T23:59:59Z', auth, 'GET', path)).status, 200);
      assert.equal((await call('2030-12-03T00:00:00Z', auth, 'GET', path)).status, 404);
    });

    await t.step('a yearly checkout at the last second of pre-sale takes 30% off', async () => {
      assert.deepEqual(await checkout('2030-11-24T23:59:59Z', 'yearly'), {
        coupon: BLACK_FRIDAY_2024_COUPON,
        total: 12900 - Math.round(12900 * 0.3),
      });
    });

    await t.step('a monthly checkout during the sale pays the full price', async () => {
      assert.deepEqual(await checkout('2030-11-29T23:59:59Z', 'monthly'), {
        coupon: null,
        total: 1299,
      });
    });

    await t.step('a yearly checkout the second after the sale pays the full price', async () => {
      assert.deepEqual(await checkout('2030-12-03T00:00:00Z', 'yearly'), {
        coupon: null,
        total: 12900,
      });
    });
  } finally {
    await closeSql();
  }
});
