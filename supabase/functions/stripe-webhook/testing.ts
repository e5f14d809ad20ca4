/**
 * Test support for the stripe-webhook tests: events signed as Stripe signs them and delivered
 * to a handler, a user subscribed through the stack sandbox's real checkout, and the sandbox's
 * events about given objects. Not imported by any function.
 */
import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import type Stripe from 'stripe';
import { cardBillingFromEnv, stripeSdk } from '../_shared/billing/stripe.ts';
import { sql } from '../_shared/sql.ts';
import { hmacSha256Hex, type StackEnv } from '../_shared/testing.ts';

type Handler = (request: Request) => Promise<Response>;

export function webhookTesting(env: StackEnv, webhook: Handler) {
  const billing = cardBillingFromEnv();
  const stripe = stripeSdk(env.STRIPE_SECRET_KEY!, env.STRIPE_API_BASE);
  const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  });

  async function deliver(
    event: unknown,
    { secret = env.STRIPE_WEBHOOK_SECRET!, at = Math.floor(Date.now() / 1000) } = {},
  ) {
    const body = JSON.stringify(event);
    const signature = `t=${at},v1=${await hmacSha256Hex(secret, `${at}.${body}`)}`;
    const response = await webhook(
      new Request('http://localhost/stripe-webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      }),
    );
    return {
      status: response.status,
      body: (await response.json()) as { result?: string; code?: string },
    };
  }

  /** A user on a plan of their own, subscribed through the sandbox's checkout with 4242…. */
  async function subscribedUser() {
    const suffix = crypto.randomUUID().slice(0, 8);
    const { data, error } = await admin.auth.admin.createUser({
      email: `stripe-${suffix}@functions.test`,
      password: `Pw-${crypto.randomUUID()}`,
      email_confirm: true,
    });
    if (error) throw error;
    const db = sql();
    const [profile] = await db<{ account: string }[]>`
    select personal_account_id as account from public.profiles where id = ${data.user.id}`;
    const [plan] = await db<{ price: string }[]>`
    with plan as (
      insert into public.plans (name, "group") values (${`stripe-test-${suffix}`}, 'test') returning id
    )
    insert into public.plan_prices (plan_id, interval, amount, currency)
    select id, 'yearly', 12900, 'USD' from plan returning id as price`;
    const account = profile!.account;
    const metadata = { account_id: account, plan_price_id: plan!.price };
    const customer = await billing.createCustomer({ email: null, metadata });
    const session = await billing.createCheckout({
      customerId: customer.id,
      unitAmount: 12900,
      currency: 'usd',
      interval: 'year',
      productName: 'Test plan',
      trialDays: 0,
      successUrl: 'http://localhost/success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://localhost/cancel',
      metadata,
    });
    const paid = await fetch(session.url!, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        cardNumber: '4242424242424242',
        cardExpiry: '12/34',
        cardCvc: '123',
      }),
    });
    await paid.body?.cancel();
    assert.equal(paid.status, 303);
    const done = await billing.retrieveCheckout(session.id);
    return {
      userId: data.user.id,
      account,
      customer: customer.id,
      session: session.id,
      subscription: done.subscription as string,
    };
  }

  /** The sandbox's events about one subscription (or its session, or its invoices), oldest first. */
  async function eventsAbout(ids: string[]): Promise<Stripe.Event[]> {
    const events = await stripe.events.list({ limit: 100 });
    return events.data
      .filter((event) => ids.some((id) => JSON.stringify(event.data.object).includes(id)))
      .reverse();
  }

  return { billing, stripe, admin, deliver, subscribedUser, eventsAbout };
}
