import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { subscribeWithCard, useUpTrial } from '../support/billing.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';
import { makeStaff } from './kiosk-support.ts';

/**
 * The subscription lifecycle on billing type 1 against the Stripe sandbox: cancel now, a
 * monthly-to-yearly switch charged as Stripe prorates it, a downgrade scheduled and cancelled,
 * a coupon taken off the first charge, and an organization's own subscription.
 */

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
}

const origin = (page: Page) => new URL(page.url()).origin;

test('cancel now ends the plan at once and offers to reactivate it', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser();
  await signIn(page, user);
  await subscribeWithCard(user, 'pro', 'yearly', { portalOrigin: origin(page) });
  await page.goto('/app/settings/subscription');
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await page.getByRole('link', { name: 'Cancel subscription' }).click();
  await expect(page).toHaveURL('/app/settings/subscription/cancel');
  await page.getByRole('button', { name: 'Cancel now' }).click();
  await expect(page).toHaveURL('/app/settings/subscription');
  await expect(page.getByTestId('ended')).toContainText('Your Pro plan ended on');
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await expect(page.getByRole('button', { name: 'Reactivate Pro' })).toBeVisible();
});

test('switching monthly to yearly charges what Stripe prorates, once the webhook lands', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser();
  await signIn(page, user);
  await subscribeWithCard(user, 'pro', 'monthly', { portalOrigin: origin(page) });
  await page.goto('/app/settings/subscription');
  await page.getByRole('link', { name: 'Switch to yearly billing' }).click();
  await expect(page).toHaveURL('/app/settings/subscription/update/pro/yearly');
  // A year of Pro ($129.00) less the unused part of the month just paid ($12.99).
  const due = page.getByTestId('amount-due');
  await expect(due).toContainText(/Due today: \$116\.\d\d/);
  const shown = (await due.textContent())!.match(/\$([\d.]+)/)![1]!;
  await page.getByRole('button', { name: 'Confirm and pay' }).click();
  await expect(page).toHaveURL(/\/app\/settings\/subscription\/update\/verification\?/);
  await expect(page.getByTestId('updated-plan')).toHaveText('You are now on Pro (yearly).');
  const profile = await serviceClient()
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const invoices = await serviceClient()
    .from('invoices')
    .select('amount')
    .eq('account_id', profile.data!.personal_account_id)
    .order('issued_at', { ascending: false });
  expect(invoices.data!.map((invoice) => invoice.amount)).toContain(
    Math.round(Number(shown) * 100),
  );
  await page.getByRole('link', { name: 'See your subscription' }).click();
  await expect(page.getByTestId('plan-amount')).toHaveText('$129.00 per year');
});

test('a downgrade is scheduled for the period end and can be cancelled', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser();
  await signIn(page, user);
  await subscribeWithCard(user, 'business', 'yearly', { portalOrigin: origin(page) });
  await page.goto('/app/settings/subscription');
  await expect(page.getByTestId('current-plan')).toHaveText('Business');
  await page.getByRole('link', { name: 'Switch to Pro (yearly)' }).click();
  await expect(page.getByTestId('downgrade-start')).toContainText('Your current plan stays until');
  await page.getByRole('button', { name: 'Schedule the change' }).click();
  await expect(page).toHaveURL('/app/settings/subscription');
  await expect(page.getByTestId('pending-downgrade')).toContainText(
    'Your plan changes to Pro (yearly) on',
  );
  await expect(page.getByTestId('current-plan')).toHaveText('Business');
  await page.getByRole('button', { name: 'Keep my current plan' }).click();
  await expect(page.getByText('Your plan stays as it is.')).toBeVisible();
  await expect(page.getByTestId('pending-downgrade')).toHaveCount(0);
  await expect(page.getByTestId('current-plan')).toHaveText('Business');
});

test('a remembered coupon changes the amount charged at checkout', async ({ page, factories }) => {
  const code = `E2E${randomUUID().slice(0, 6).toUpperCase()}`;
  const coupon = await serviceClient().from('coupons').insert({ code, percent_off: 20 });
  expect(coupon.error).toBeNull();
  const user = await factories.createConfirmedUser();
  // The free trial is used up, so the first charge is today's (and the coupon comes off it).
  await useUpTrial(user);
  await signIn(page, user);
  await page.goto(`/app/pricing?coupon=${code}`);
  await expect(page.getByText(`Coupon ${code}: 20% off`)).toBeVisible();
  const pro = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: 'Choose Pro' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  await expect(page.getByTestId('due-today')).toHaveText('Due today: $103.20');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/);
  const profile = await serviceClient()
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const invoices = await serviceClient()
    .from('invoices')
    .select('amount')
    .eq('account_id', profile.data!.personal_account_id);
  expect(invoices.data).toEqual([{ amount: 10320 }]);
});

test('an organization owner subscribes the organization', async ({ page, factories }) => {
  // Organization pages are behind the developer flag for now (the rollout switch).
  const owner = await makeStaff(await factories.createConfirmedUser());
  const organization = await factories.createOrganization(owner, 'Globex');
  await signIn(page, owner);
  await page.goto(`/app/organizations/${organization.slug}/settings/profile/subscription`);
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await page.getByRole('button', { name: 'Choose Pro (yearly)' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /Subscribe|Start trial/ }).click();
  await page.waitForURL(
    new RegExp(`/app/organizations/${organization.slug}/settings/profile/subscription/success`),
  );
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/);
  await page.getByRole('link', { name: 'See your subscription' }).click();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  // The organization's plan, not the owner's: their own settings stay on Free.
  await page.goto('/app/settings/subscription');
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
});
