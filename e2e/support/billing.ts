import type { Page } from '@playwright/test';
import type { TestUser } from './factories.ts';
import { expect } from './fixtures.ts';
import { logIn } from './shell.ts';
import { stackEnv } from './stack.ts';
import { nodeSupabaseClient } from './supabase.ts';

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

/** The sandbox's test clock: the period (or the trial) ends now and its charge succeeds or fails. */
export async function renewNow(user: TestUser, outcome: 'paid' | 'failed') {
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
    .eq('billing_type', 1)
    .single();
  if (subscription.error) throw subscription.error;
  const response = await fetch(
    `${env.STRIPE_API_BASE}/_sandbox/subscriptions/${subscription.data.billing_id}/renew`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `outcome=${outcome}`,
    },
  );
  expect(response.status).toBe(200);
}
