import type { FrameLocator, Page } from '@playwright/test';
import { preferPaddle } from '../support/paddle.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';

/**
 * Billing type 2 end to end: for an account whose provider is Paddle, the pricing page's
 * "Choose Pro" leads to /paddle/payment, where Paddle.js (the sandbox's stand-in, loaded through
 * @paddle/paddle-js) opens the overlay checkout for the transaction; the card decides; the
 * sandbox's signed notification records the plan, which the success page waits for.
 */

async function payWith(checkout: FrameLocator, card: string) {
  await checkout.getByLabel('ZIP/Postcode').fill('10001');
  await checkout.getByLabel('Card number').fill(card);
  await checkout.getByLabel('Name on card').fill('E2E Buyer');
  await checkout.getByLabel('Expiration date').fill('12/34');
  await checkout.getByLabel('Security code').fill('123');
  await checkout.getByRole('button', { name: 'Subscribe now' }).click();
}

async function openProOverlay(page: Page): Promise<FrameLocator> {
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

test.describe('subscribing through the Paddle overlay (billing type 2)', () => {
  test('Pro yearly with 4242…: the overlay completes, the success page shows Pro, cancel and resume work', async ({
    page,
    factories,
  }) => {
    // Checkout, webhook, then two changes each followed by the spec's 3 s wait and a refresh.
    test.slow();
    const user = await factories.createConfirmedUser();
    await preferPaddle(stackEnv(), user);
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    const checkout = await openProOverlay(page);
    await expect(checkout.getByText('$129.00', { exact: true })).toBeVisible();
    await expect(checkout.getByLabel('Email address')).toHaveValue(user.email);
    await payWith(checkout, '4242 4242 4242 4242');

    await page.waitForURL(/\/app\/settings\/subscription\/success\?session_id=txn_/);
    await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/);

    await page.getByRole('link', { name: 'See your subscription' }).click();
    await expect(page.getByTestId('current-plan')).toHaveText('Pro');
    await expect(page.getByTestId('trial-days-left')).toHaveText('7 days left in your trial.');
    // Plan changes are Stripe's only for now; cancel and resume go through the lifecycle pages.
    await expect(page.getByTestId('no-plan-changes')).toBeVisible();
    await page.getByRole('link', { name: 'Cancel subscription' }).click();
    await page.getByRole('button', { name: 'Cancel at the end of the period' }).click();
    await expect(page).toHaveURL('/app/settings/subscription');
    await expect(page.getByTestId('grace-period')).toContainText(
      'Your plan is cancelled. It stays active until',
    );
    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await expect(page.getByTestId('renewal')).toContainText('Renews on');
  });

  test("a declined card shows the spec's message; closing the overlay goes back to the plans", async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await preferPaddle(stackEnv(), user);
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    const checkout = await openProOverlay(page);
    await payWith(checkout, '4000 0000 0000 0002');
    await expect(checkout.getByRole('alert')).toContainText('Your payment was declined');
    await expect(page.getByTestId('payment-declined')).toHaveText(
      'Payment declined. Please update your payment method.',
    );
    await expect(page).toHaveURL(/\/paddle\/payment\?_ptxn=txn_/);

    await page.getByRole('button', { name: 'Close checkout' }).click();
    await page.waitForURL(/\/app\/pricing/);
    await page.goto('/app/settings/subscription');
    await expect(page.getByTestId('current-plan')).toHaveText('Free');
  });
});
