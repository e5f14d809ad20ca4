import { renewNow, subscribeToPro } from '../support/billing.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * The kiosk's Billing tab of a user: their subscription, invoices and orders; staff refund a
 * paid order (it becomes refunded, 51) and cancel the subscription, through Stripe's sandbox.
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
