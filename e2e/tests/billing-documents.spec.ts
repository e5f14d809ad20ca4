import { readFile } from 'node:fs/promises';
import { fillCard, renewNow, subscribeToPro } from '../support/billing.ts';
import { expect, test } from '../support/fixtures.ts';

/**
 * Billing type 1 after checkout, against the Stripe sandbox: the past-due page's "Pay now" on
 * the hosted invoice page, replacing the card through Checkout in setup mode, and an invoice's
 * PDF. Each user subscribes to Pro (with its 7-day trial) through the real hosted checkout.
 */

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
    await renewNow(user, 'failed');

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
