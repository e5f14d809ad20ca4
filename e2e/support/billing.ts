import type { Page } from '@playwright/test';
import type { TestUser } from './factories.ts';
import { expect } from './fixtures.ts';
import { logIn, serviceClient, signedInClient } from './shell.ts';
import { stackEnv } from './stack.ts';
import { nodeSupabaseClient } from './supabase.ts';

/**
 * Billing set-up through the real path, without the browser: the user's own `billing` call
 * opens a Stripe sandbox checkout, the sandbox's hosted page is paid with a test card, and the
 * sandbox's webhook records the plan (waited for). Specs then drive what they test in the page.
 */
export async function subscribeWithCard(
  user: TestUser,
  plan: string,
  interval: 'monthly' | 'yearly',
  options: { portalOrigin: string; card?: string },
): Promise<{ customerId: string; subscriptionId: string }> {
  const client = await signedInClient(user);
  const { data: session } = await client.auth.getSession();
  const env = stackEnv();
  const call = (path: string, method: string, body: unknown) =>
    fetch(`${env.SUPABASE_URL}/functions/v1/billing/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session.session!.access_token}`,
        apikey: env.SUPABASE_ANON_KEY,
        origin: options.portalOrigin,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  const order = {
    billing_type: 1,
    subscription: plan,
    interval,
    currency: 'USD',
    type: 'default',
    trial: false,
  };
  let response = await call('new-subscription', 'POST', order);
  if (response.status === 422) {
    // A plan with force_billing_address (Business): the tax details first, as the portal asks.
    const refused = (await response.json()) as { errors?: Record<string, string[]> };
    if (!refused.errors?.billing_address)
      throw new Error(`new-subscription: 422 ${JSON.stringify(refused)}`);
    const saved = await call('vatinfo', 'PUT', {
      billing_type: 1,
      address: { line1: '1 Test Street', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    if (!saved.ok) throw new Error(`vatinfo: ${saved.status} ${await saved.text()}`);
    response = await call('new-subscription', 'POST', order);
  }
  if (!response.ok)
    throw new Error(`new-subscription: ${response.status} ${await response.text()}`);
  const { checkout } = (await response.json()) as {
    checkout: { payment_url: string; customer: { id: string } };
  };
  const paid = await fetch(checkout.payment_url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      cardNumber: options.card ?? '4242424242424242',
      cardExpiry: '12 / 34',
      cardCvc: '123',
    }),
  });
  await paid.body?.cancel();
  if (paid.status !== 303) throw new Error(`the sandbox checkout answered ${paid.status}`);
  const profile = await serviceClient()
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { data } = await serviceClient()
      .from('subscriptions')
      .select('billing_id')
      .eq('account_id', profile.data!.personal_account_id)
      .like('billing_id', 'sub_%')
      .is('ends_at', null);
    const row = data?.[0];
    if (row) return { customerId: checkout.customer.id, subscriptionId: row.billing_id as string };
    if (Date.now() > deadline) throw new Error('the webhook never recorded the subscription');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Marks the user's free trial as used (an earlier paid plan, long ended), as history would. */
export async function useUpTrial(user: TestUser): Promise<void> {
  const db = serviceClient();
  const profile = await db
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const { error } = await db.from('subscriptions').insert({
    account_id: profile.data!.personal_account_id,
    name: 'pro',
    interval: 'monthly',
    currency: 'USD',
    period_starts_at: '2020-01-01T00:00:00Z',
    ends_at: '2020-02-01T00:00:00Z',
  });
  if (error) throw new Error(`Could not record a past plan: ${error.message}`);
}

/** Billing type 1 in the browser: the Stripe sandbox's hosted pages and its test clock. */

export async function fillCard(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('E2E Buyer');
}

/** Logs the user in and subscribes them to Pro with 4242… through the sandbox's checkout. */
export async function subscribeToPro(page: Page, user: TestUser) {
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app');
  await page.goto('/app/pricing');
  const pro = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: 'Choose Pro' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: /Subscribe|Start trial/ }).click();
  // The success page waits for the webhook (and, on a busy machine, for its own code).
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro/, {
    timeout: 60_000,
  });
}

/**
 * The sandbox's test clock: the period (or the trial) ends now and its charge succeeds or fails,
 * at Stripe (billing type 1) or Paddle (2).
 */
export async function renewNow(user: TestUser, outcome: 'paid' | 'failed', billingType: 1 | 2 = 1) {
  const env = stackEnv();
  const admin = nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
  const profile = await admin
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  if (profile.error) throw profile.error;
  const subscription = await admin
    .from('subscriptions')
    .select('billing_id')
    .eq('account_id', profile.data.personal_account_id)
    .eq('billing_type', billingType)
    .single();
  if (subscription.error) throw subscription.error;
  const id = subscription.data.billing_id as string;
  const response =
    billingType === 2
      ? await fetch(`${env.PADDLE_API_BASE}/_sandbox/subscriptions/${id}/renew`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.PADDLE_API_KEY}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ outcome: outcome === 'failed' ? 'failed' : 'charge' }),
        })
      : await fetch(`${env.STRIPE_API_BASE}/_sandbox/subscriptions/${id}/renew`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: `outcome=${outcome}`,
        });
  expect(response.status).toBe(200);
}
