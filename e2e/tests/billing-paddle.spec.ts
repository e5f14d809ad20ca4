import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { openProOverlay, payWith, preferPaddle } from '../support/paddle.ts';
import { expect, test } from '../support/fixtures.ts';
import type { TestUser } from '../support/factories.ts';
import { logIn, serviceClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import { makeStaff } from './kiosk-support.ts';

/**
 * Billing type 2 end to end: for an account whose provider is Paddle, the pricing page's
 * "Choose Pro" leads to /paddle/payment, where Paddle.js (the sandbox's stand-in, loaded through
 * @paddle/paddle-js) opens the overlay checkout for the transaction; the card decides; the
 * sandbox's signed notification records the plan, which the success page waits for. Then plan
 * changes as Paddle prorates them, a pending downgrade, a renewal declined (the sandbox's clock
 * control) and paid from the past-due page, and an organization's checkout with a coupon (a
 * Paddle discount) that lands on the organization's success page.
 */

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

/** The sandbox's clock control: the user's Paddle subscription's period ends now (billed). */
async function renewNow(page: Page, user: TestUser, outcome: 'charge' | 'failed') {
  const env = stackEnv();
  const db = serviceClient();
  const profile = await db
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const subscription = await db
    .from('subscriptions')
    .select('billing_id')
    .eq('account_id', profile.data!.personal_account_id)
    .eq('billing_type', 2)
    .not('billing_id', 'like', '%:scheduled')
    .single();
  const response = await page.request.post(
    `${env.PADDLE_API_BASE}/_sandbox/subscriptions/${subscription.data!.billing_id}/renew`,
    {
      headers: { authorization: `Bearer ${env.PADDLE_API_KEY}` },
      data: outcome === 'failed' ? { outcome: 'failed' } : {},
    },
  );
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('changing a Paddle plan and paying a past-due renewal (billing type 2)', () => {
  test('monthly to yearly is charged now, prorated; a declined renewal is paid from the past-due page', async ({
    page,
    factories,
  }) => {
    test.slow();
    const user = await factories.createConfirmedUser();
    await preferPaddle(stackEnv(), user);
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    // Pro monthly from the subscription page (no trial: the plan changes are billed).
    await page.goto('/app/settings/subscription');
    await page.getByRole('button', { name: 'Choose Pro (monthly)' }).click();
    await page.waitForURL(/\/paddle\/payment\?_ptxn=txn_/);
    const checkout = page.frameLocator('iframe[name="paddle_frame"]');
    await payWith(checkout, '4242 4242 4242 4242');
    await page.waitForURL(/\/app\/settings\/subscription\/success\?session_id=txn_/);
    await expect(page.getByTestId('subscribed-plan')).toHaveText(/Pro \(monthly\)/);
    // The trial ends and the first month is billed to the card on file.
    await renewNow(page, user, 'charge');

    await page.goto('/app/settings/subscription');
    await page.getByRole('link', { name: 'Switch to yearly billing' }).click();
    await expect(page.getByTestId('amount-due')).toContainText('Due today');
    await page.getByRole('button', { name: 'Confirm and pay' }).click();
    await expect(page.getByTestId('updated-plan')).toHaveText('You are now on Pro (yearly).');

    // A downgrade back to monthly waits for the period end, and can be dropped.
    await page.goto('/app/settings/subscription');
    await page.getByRole('link', { name: 'Switch to monthly billing' }).click();
    await page.getByRole('button', { name: 'Schedule the change' }).click();
    await expect(page.getByTestId('pending-downgrade')).toContainText('Pro (monthly)');
    await page.getByRole('button', { name: 'Keep my current plan' }).click();
    await expect(page.getByTestId('pending-downgrade')).toHaveCount(0);

    // The renewal's card is declined: past due, the app sends the user to pay.
    await renewNow(page, user, 'failed');
    await page.goto('/app/settings/subscription');
    await expect(page.getByText('Past due')).toBeVisible();
    await page.goto('/app/subscribe');
    await page.getByRole('button', { name: /pay now/i }).click();
    await page.waitForURL(/\/paddle\/payment\?flow=invoice-payment&_ptxn=txn_/);
    const due = page.frameLocator('iframe[name="paddle_frame"]');
    await payWith(due, '4242 4242 4242 4242', 'Pay now');
    await page.waitForURL('/app');
    await page.goto('/app/settings/subscription');
    await expect(page.getByText('Past due')).toHaveCount(0);
    await expect(page.getByTestId('renewal')).toContainText('Renews on');
  });
});

test('an organization owner subscribes the organization through Paddle with a coupon', async ({
  page,
  factories,
}) => {
  test.slow();
  const code = `PDL${randomUUID().slice(0, 6).toUpperCase()}`;
  expect(
    (await serviceClient().from('coupons').insert({ code, percent_off: 20 })).error,
  ).toBeNull();
  // Organization pages are behind the developer flag for now (the rollout switch).
  const owner = await makeStaff(await factories.createConfirmedUser());
  const organization = await factories.createOrganization(owner, 'Initech');
  await preferPaddle(stackEnv(), owner, organization.accountId);
  // A plan before: no trial, so the first charge is today's and the coupon comes off it.
  const history = await serviceClient().from('subscriptions').insert({
    account_id: organization.accountId,
    name: 'pro',
    interval: 'monthly',
    currency: 'USD',
    period_starts_at: '2020-01-01T00:00:00Z',
    ends_at: '2020-02-01T00:00:00Z',
  });
  expect(history.error).toBeNull();
  await page.goto('/app/login');
  await logIn(page, owner.email, owner.password);
  await expect(page).toHaveURL('/app');
  await page.goto(`/app/pricing?coupon=${code}`);
  await expect(page.getByText(`Coupon ${code}: 20% off`)).toBeVisible();
  await page.goto(`/app/organizations/${organization.slug}/settings/profile/subscription`);
  await page.getByRole('button', { name: 'Choose Pro (yearly)' }).click();
  await page.waitForURL(/\/paddle\/payment\?scope=organization%3A[a-z0-9-]+&_ptxn=txn_/);
  const checkout = page.frameLocator('iframe[name="paddle_frame"]');
  // $129.00 less 20%.
  await expect(checkout.getByTestId('due-today')).toHaveText('$103.20');
  await payWith(checkout, '4242 4242 4242 4242');
  await page.waitForURL(
    new RegExp(
      `/app/organizations/${organization.slug}/settings/profile/subscription/success\\?session_id=txn_`,
    ),
  );
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro \(yearly\)/);
  const invoices = await serviceClient()
    .from('invoices')
    .select('amount')
    .eq('account_id', organization.accountId);
  expect(invoices.data).toEqual([{ amount: 10320 }]);
});
