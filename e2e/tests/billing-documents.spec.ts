import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { nodeSupabaseClient } from '../support/supabase.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import type { TestUser } from '../support/factories.ts';

/**
 * Billing type 1 after checkout, against the Stripe sandbox: the past-due page's "Pay now" on
 * the hosted invoice page, replacing the card through Checkout in setup mode, and an invoice's
 * PDF. Each user subscribes to Pro (with its 7-day trial) through the real hosted checkout.
 */

async function fillCard(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('E2E Buyer');
}

/** Logs the user in and subscribes them to Pro with 4242… through the sandbox's checkout. */
async function subscribeToPro(page: Page, user: TestUser) {
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

/** The sandbox's test clock: the trial ends and its first charge fails. */
async function failRenewal(user: TestUser) {
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
      body: 'outcome=failed',
    },
  );
  expect(response.status).toBe(200);
}

test.describe('billing documents (billing type 1)', () => {
  // Each test subscribes through the hosted checkout and waits for webhooks: on a loaded
  // machine that alone can take most of the default minute.
  test.describe.configure({ timeout: 300_000 });

  test('a past-due user pays the open invoice and gets the dashboard back', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await subscribeToPro(page, user);
    await failRenewal(user);

    // Once the webhook has landed, every page sends the past-due trial user here.
    await expect(async () => {
      await page.goto('/app/dashboard');
      await expect(page).toHaveURL('/app/subscribe', { timeout: 15_000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByRole('heading', { name: 'Your payment is past due' })).toBeVisible();
    await expect(page.getByText(/Your last payment of \$129\.00 did not go through/)).toBeVisible();

    const [invoicePage] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pay now' }).click(),
    ]);
    await invoicePage.waitForURL(/\/sandbox\/stripe\/i\/in_/);
    await fillCard(invoicePage, '4000 0000 0000 0002');
    await invoicePage.getByRole('button', { name: 'Pay $129.00' }).click();
    await expect(invoicePage.getByRole('alert')).toHaveText('Your card was declined.');
    await fillCard(invoicePage, '4242 4242 4242 4242');
    await invoicePage.getByRole('button', { name: 'Pay $129.00' }).click();
    await expect(invoicePage.getByRole('status')).toHaveText('Invoice paid');

    await page.waitForURL('/app/dashboard', { timeout: 60_000 });
    await page.goto('/app/settings/orders');
    await expect(page.getByRole('table', { name: 'Orders' })).toContainText('paid');
  });

  test('a subscriber replaces the card and sees the new last four', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await subscribeToPro(page, user);
    // The checkout's card is on file once its webhook has landed.
    await expect(async () => {
      await page.goto('/app/settings/payment-method');
      await expect(page.getByTestId('card-last-four')).toHaveText('4242', { timeout: 15_000 });
    }).toPass({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Update payment method' }).click();
    await page.waitForURL(/\/sandbox\/stripe\/c\/setup\/cs_test_/);
    await fillCard(page, '5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/app\/settings\/payment-method\?session_id=cs_test_/);
    await expect(page.getByTestId('card-last-four')).toHaveText('4444', { timeout: 60_000 });
    await expect(page.getByTestId('payment-method')).toContainText('Mastercard');
    await expect(page.getByTestId('payment-method')).toContainText('Expires 12/2034');
  });

  test('an invoice downloads as a PDF', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await subscribeToPro(page, user);
    const table = page.getByRole('table', { name: 'Invoices' });
    await expect(async () => {
      await page.goto('/app/settings/invoices');
      await expect(table).toContainText('paid', { timeout: 15_000 });
    }).toPass({ timeout: 60_000 });
    const button = table.getByRole('button', { name: /^Download invoice SBX-\d+ \(PDF\)$/ });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^Invoice-SBX-\d+\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(bytes.toString('latin1')).toContain('%%EOF');
  });
});
