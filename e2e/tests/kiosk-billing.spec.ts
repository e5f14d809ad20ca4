import { renewNow, subscribeToPro } from '../support/billing.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { openProOverlay, payWith, preferPaddle } from '../support/paddle.ts';
import { logIn, serviceClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * The kiosk's Billing tab of a user: their subscription, invoices and orders; staff refund a
 * paid order (it becomes refunded, 51) and cancel the subscription, through Stripe's sandbox;
 * a Paddle order's refund waits for Paddle's approval (the sandbox's control stands in for
 * Paddle's review), shown as pending until then.
 */
test('staff refund a paid order and cancel a subscription from a user’s Billing tab', async ({
  page,
  browser,
  factories,
}) => {
  test.setTimeout(300_000);
  const customer = await factories.createConfirmedUser();
  await subscribeToPro(page, customer);
  await renewNow(customer, 'paid');

  const staff = await makeStaff(await factories.createConfirmedUser());
  const kiosk = await (await browser.newContext()).newPage();
  await openKioskAsStaff(kiosk, staff);
  await kiosk.goto(`${appUrls.kiosk}/users/${customer.id}/show/billing`);
  const orders = kiosk.getByRole('region', { name: 'Orders' });
  await expect(async () => {
    await kiosk.reload();
    await expect(orders).toContainText('paid (48)', { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
  await expect(kiosk.getByRole('region', { name: 'Invoices' })).toContainText('$129.00');

  await orders.getByRole('button', { name: 'Refund' }).click();
  await kiosk.getByRole('button', { name: 'Confirm' }).click();
  await expect(kiosk.getByText('Order refunded')).toBeVisible({ timeout: 30_000 });
  await expect(orders).toContainText('refunded (51)');
  await expect(orders.getByRole('button', { name: 'Refund' })).toBeDisabled();

  const subscriptions = kiosk.getByRole('region', { name: 'Subscriptions' });
  await subscriptions.getByRole('button', { name: 'Cancel now' }).click();
  await kiosk.getByRole('button', { name: 'Confirm' }).click();
  await expect(kiosk.getByText('Subscription cancelled')).toBeVisible({ timeout: 30_000 });
  await expect(subscriptions).toContainText('canceled');
});

/** Paddle's review of the transaction's pending refund, through the sandbox's control. */
async function approvePaddleRefund(transactionId: string) {
  const env = stackEnv();
  const headers = { authorization: `Bearer ${env.PADDLE_API_KEY}` };
  const listed = await fetch(
    `${env.PADDLE_API_BASE}/adjustments?transaction_id=${transactionId}&status=pending_approval`,
    { headers },
  );
  const { data } = (await listed.json()) as { data: { id: string }[] };
  expect(data).toHaveLength(1);
  const approved = await fetch(
    `${env.PADDLE_API_BASE}/_sandbox/adjustments/${data[0]!.id}/approve`,
    {
      method: 'POST',
      headers,
    },
  );
  expect(approved.status).toBe(200);
}

test('staff refund a Paddle order: refund pending until Paddle approves it, then refunded', async ({
  page,
  browser,
  factories,
}) => {
  test.setTimeout(300_000);
  const customer = await factories.createConfirmedUser();
  await preferPaddle(stackEnv(), customer);
  await page.goto('/app/login');
  await logIn(page, customer.email, customer.password);
  await expect(page).toHaveURL('/app');
  await payWith(await openProOverlay(page), '4242 4242 4242 4242');
  await expect(page.getByTestId('subscribed-plan')).toHaveText(/You are now on Pro/, {
    timeout: 60_000,
  });
  // The checkout started a trial: the renewal is the paid transaction.
  await renewNow(customer, 'paid', 2);

  const staff = await makeStaff(await factories.createConfirmedUser());
  const kiosk = await (await browser.newContext()).newPage();
  await openKioskAsStaff(kiosk, staff);
  await kiosk.goto(`${appUrls.kiosk}/users/${customer.id}/show/billing`);
  const orders = kiosk.getByRole('region', { name: 'Orders' });
  await expect(async () => {
    await kiosk.reload();
    await expect(orders).toContainText('paid (48)', { timeout: 10_000 });
  }).toPass({ timeout: 60_000 });

  await orders.getByRole('button', { name: 'Refund' }).click();
  await expect(kiosk.getByText(/once Paddle approves the refund/)).toBeVisible();
  await kiosk.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    kiosk.getByText('Refund requested: the order is refunded once Paddle approves it'),
  ).toBeVisible({ timeout: 30_000 });
  await expect(orders).toContainText('paid (48), refund pending approval');
  await expect(orders.getByRole('button', { name: 'Refund' })).toBeDisabled();

  const order = await serviceClient()
    .from('orders')
    .select('billing_id')
    .eq('user_id', customer.id)
    .eq('billing_type', 2)
    .eq('status', 48)
    .single();
  if (order.error) throw order.error;
  await approvePaddleRefund(order.data.billing_id as string);
  await expect(async () => {
    await kiosk.reload();
    await expect(orders).toContainText('refunded (51)', { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await expect(orders.getByRole('button', { name: 'Refund' })).toBeDisabled();
});
