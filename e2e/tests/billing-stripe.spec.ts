import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { logIn } from '../support/shell.ts';

/**
 * Billing type 1 end to end: the pricing page's "Choose Pro" opens the Stripe sandbox's hosted
 * checkout; the card decides; the sandbox's signed webhook records the plan, which the success
 * page waits for; settings/subscription cancels at the period end and resumes.
 */

async function payWith(page: Page, card: string) {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('E2E Buyer');
  await page.getByRole('button', { name: /Subscribe|Start trial/ }).click();
}

async function openProCheckout(page: Page) {
  await page.goto('/app/pricing');
  await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked();
  const pro = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: 'Choose Pro' }).click();
  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
}

test.describe('subscribing with a card (billing type 1)', () => {
  test('a free user starts a Pro trial with 4242…, sees it, cancels, sees the grace period and resumes', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    await openProCheckout(page);
    await expect(page.getByText('$129.00', { exact: true })).toBeVisible();
    await payWith(page, '4242 4242 4242 4242');

    await page.waitForURL(/\/app\/settings\/subscription\/success\?session_id=cs_test_/);
    await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/);

    await page.getByRole('link', { name: 'See your subscription' }).click();
    await expect(page.getByTestId('current-plan')).toHaveText('Pro');
    await expect(page.getByTestId('renewal')).toContainText('Renews on');
    // The seeded Pro plan offers a 7-day trial, which "Choose Pro" asks for.
    await expect(page.getByTestId('trial-days-left')).toHaveText('7 days left in your trial.');

    // Cancel at the period end: the grace period, then resume.
    await page.getByRole('link', { name: 'Cancel subscription' }).click();
    await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
    await expect(page).toHaveURL('/app/settings/subscription');
    await expect(page.getByTestId('grace-period')).toContainText(
      'Your plan is cancelled. It stays active until',
    );
    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await expect(page.getByTestId('renewal')).toContainText('Renews on');
    await expect(page.getByRole('link', { name: 'Cancel subscription' })).toBeVisible();
  });

  test('a declined card keeps the user on the checkout with the decline message', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    await openProCheckout(page);
    await payWith(page, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page).toHaveURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);

    await page.getByRole('link', { name: '← Back' }).click();
    await page.waitForURL(/\/app\/pricing/);
    await page.goto('/app/settings/subscription');
    await expect(page.getByTestId('current-plan')).toHaveText('Free');
  });
});
