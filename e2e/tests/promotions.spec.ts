import type { Page } from '@playwright/test';
import { fillCard, useUpTrial } from '../support/billing.ts';
import type { TestUser } from '../support/factories.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';

/**
 * The shell's promotions against the real stack. The test stack's sale calendar runs Black
 * Friday today, in the portal (VITE_SALE_CALENDAR) and in the billing function (SALE_CALENDAR),
 * which alone decides whether the sale coupon comes off a checkout. Tagged @promotions: other
 * specs start with every promotion closed (support/fixtures.ts).
 */

async function signIn(page: Page, user: TestUser) {
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
}

async function personalAccount(user: TestUser): Promise<string> {
  const profile = await serviceClient()
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  if (profile.error) throw profile.error;
  return profile.data.personal_account_id as string;
}

/**
 * A Pro trial that started without a card and ends in 20 hours: the Stripe sandbox's customer,
 * recorded as the account's billing customer, and the trial as the webhook would record it.
 */
async function trialEndingTomorrow(user: TestUser): Promise<void> {
  const env = stackEnv();
  const created = await fetch(`${env.STRIPE_API_BASE}/v1/customers`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${env.STRIPE_SECRET_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email: user.email }),
  });
  expect(created.status).toBe(200);
  const customer = (await created.json()) as { id: string };
  const accountId = await personalAccount(user);
  const db = serviceClient();
  const billing = await db.from('billing_customers').insert({
    account_id: accountId,
    billing_type: 1,
    billing_id: customer.id,
    is_preferred: true,
  });
  expect(billing.error).toBeNull();
  const now = Date.now();
  const trial = await db.from('subscriptions').insert({
    account_id: accountId,
    name: 'pro',
    interval: 'yearly',
    currency: 'USD',
    billing_type: 1,
    billing_status: 'trialing',
    period_starts_at: new Date(now - 6 * 86_400_000).toISOString(),
    trial_ends_at: new Date(now + 20 * 3_600_000).toISOString(),
  });
  expect(trial.error).toBeNull();
}

test('a trial user one day before the end sees the hard reminder and adds a card @promotions', async ({
  page,
  factories,
}) => {
  test.setTimeout(120_000);
  const user = await factories.createConfirmedUser();
  await trialEndingTomorrow(user);
  await signIn(page, user);

  const reminder = page.getByRole('dialog', { name: 'Your trial ends within a day' });
  await expect(reminder).toBeVisible();
  await expect(reminder).toContainText('Your free trial has less than a day left.');
  // A trial user is subscribed: no sale for them.
  await expect(page.getByRole('complementary', { name: 'Sale' })).toHaveCount(0);

  await reminder.getByRole('link', { name: 'Add a card' }).click();
  await expect(page).toHaveURL('/app/settings/payment-method');
  await expect(page.getByText('No card on file.')).toBeVisible();
  await page.getByRole('button', { name: 'Update payment method' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/setup\/cs_test_/);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForURL(/\/app\/settings\/payment-method\?session_id=cs_test_/);
  await expect(page.getByTestId('card-last-four')).toHaveText('4242', { timeout: 60_000 });

  // With a card on file the reminder is over (it was never closed).
  await page.goto('/app');
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('dialog', { name: /Your trial ends/ })).toHaveCount(0);
});

test('a free user during the sale sees the banner and subscribes yearly with the sale coupon @promotions', async ({
  page,
  factories,
}) => {
  test.setTimeout(120_000);
  const user = await factories.createConfirmedUser();
  // The free trial is used up, so the first year is charged today, with the coupon taken off.
  await useUpTrial(user);
  await signIn(page, user);

  // The promotion opens by itself; closed, the banner stays for the sale.
  const modal = page.getByRole('dialog', { name: 'Black Friday sale' });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Maybe later' }).click();
  await expect(modal).toHaveCount(0);
  const banner = page.getByRole('complementary', { name: 'Sale' });
  await expect(banner).toContainText('Black Friday');
  await expect(banner).toContainText('BLACKFRIDAY2024');

  await banner.getByRole('link', { name: 'Get the deal' }).click();
  await expect(page).toHaveURL('/app/pricing?coupon=BLACKFRIDAY2024');
  await expect(
    page.getByText('Coupon BLACKFRIDAY2024: 30% off yearly plans, applied at checkout.'),
  ).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked();
  const pro = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: 'Choose Pro' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  // Pro yearly is $129.00; 30% off.
  await expect(page.getByTestId('due-today')).toHaveText('Due today: $90.30');
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/, {
    timeout: 60_000,
  });

  const invoices = await serviceClient()
    .from('invoices')
    .select('amount')
    .eq('account_id', await personalAccount(user));
  expect(invoices.data).toEqual([{ amount: 9030 }]);

  // A subscriber sees no sale.
  await page.goto('/app/dashboard');
  await expect(page.getByRole('search')).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Sale' })).toHaveCount(0);
});
