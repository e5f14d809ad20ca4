import { expect, type FrameLocator, type Page } from '@playwright/test';
import type { StackEnv } from '../../supabase/local/src/stack.ts';
import type { TestUser } from './factories.ts';
import { nodeSupabaseClient } from './supabase.ts';

/**
 * Makes Paddle (billing type 2) the preferred provider of the user's account (or of another
 * account the user pays for, an organization's), as a returning Paddle customer is: a customer
 * in the stack's Paddle sandbox and the account's preferred billing customer row. "Choose <plan>"
 * then opens Paddle's overlay instead of Stripe's page.
 */
export async function preferPaddle(
  env: StackEnv,
  user: TestUser,
  account?: string,
): Promise<string> {
  const admin = nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
  const profile = await admin
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  if (profile.error) throw new Error(`No profile for ${user.email}: ${profile.error.message}`);
  const accountId = account ?? (profile.data.personal_account_id as string);
  const response = await fetch(`${env.PADDLE_API_BASE}/customers`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.PADDLE_API_KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email: user.email, custom_data: { account_id: accountId } }),
  });
  const body = (await response.json()) as { data?: { id: string } };
  if (!response.ok || !body.data)
    throw new Error(`Paddle customer not created: ${response.status}`);
  // The sandbox's customer.created notification may have made the row already (the customer
  // carries the account id): either way it ends up the account's preferred one.
  const row = await admin
    .from('billing_customers')
    .upsert(
      { account_id: accountId, billing_type: 2, billing_id: body.data.id, is_preferred: true },
      { onConflict: 'account_id,billing_type' },
    );
  if (row.error) throw new Error(`Billing customer not stored: ${row.error.message}`);
  return body.data.id;
}

/** Fills the sandbox overlay's card form and submits it. */
export async function payWith(checkout: FrameLocator, card: string, button = 'Subscribe now') {
  await checkout.getByLabel('ZIP/Postcode').fill('10001');
  await checkout.getByLabel('Card number').fill(card);
  await checkout.getByLabel('Name on card').fill('E2E Buyer');
  await checkout.getByLabel('Expiration date').fill('12/34');
  await checkout.getByLabel('Security code').fill('123');
  await checkout.getByRole('button', { name: button }).click();
}

/** The pricing page's "Choose Pro" (yearly) opening Paddle's overlay for its transaction. */
export async function openProOverlay(page: Page): Promise<FrameLocator> {
  await page.goto('/app/pricing');
  await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked();
  const pro = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: 'Choose Pro' }).click();
  await page.waitForURL(/\/paddle\/payment\?_ptxn=txn_[a-z0-9]{26}$/);
  const checkout = page.frameLocator('iframe[name="paddle_frame"]');
  await expect(checkout.getByRole('heading', { name: 'Shortlane Pro' })).toBeVisible();
  return checkout;
}
