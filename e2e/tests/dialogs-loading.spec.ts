import type { Page, Route } from '@playwright/test';
import {
  mainShortUrl,
  openAdvancedOptions,
  shorten,
  uniqueDestination,
} from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn } from '../support/shell.ts';

/**
 * A dialog that loads its code shows its frame and a loader at once, never an empty overlay:
 * the module behind it is held back (as on a slow network) and the loader must be there first.
 */

/** Holds the requests for a module until `release` is called. */
async function holdModule(page: Page, pattern: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route: Route) => {
    await released;
    await route.continue();
  });
  return { release };
}

test.beforeEach(async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, 'free@shortlane.test', DEMO_PASSWORD);
  await expect(page.getByLabel('Long URL')).toBeVisible();
});

test('the QR dialog shows its loader before the code is there', async ({
  page,
  saveScreenshot,
}) => {
  await page.getByLabel('Long URL').fill(uniqueDestination('qr-loading'));
  await shorten(page);
  const result = page.getByRole('region', { name: 'Your short link is ready' });
  const shortUrl = await mainShortUrl(result);

  const qrModule = await holdModule(page, '**/qr/QrCodePanel.tsx*');
  await result.getByRole('button', { name: `QR code of ${shortUrl}` }).click();
  const dialog = page.getByRole('dialog', { name: 'QR code' });
  await expect(dialog.getByRole('status')).toHaveText('Loading the QR code');
  // Sized as the code will be: no jump when it arrives.
  expect((await dialog.getByRole('status').boundingBox())?.height).toBeGreaterThanOrEqual(127);
  await saveScreenshot('dialog-loading-qr');

  qrModule.release();
  await expect(dialog.getByRole('img', { name: `QR code of ${shortUrl}` })).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveCount(0);
});

test('the UTM builder shows its loader before its form is there', async ({ page }) => {
  const utmModule = await holdModule(page, '**/utm/UtmBuilderForm.tsx*');
  await page.getByLabel('Long URL').fill(uniqueDestination('utm-loading'));
  await openAdvancedOptions(page);
  await page.getByLabel('Add UTM parameters').check();
  const builder = page.getByRole('dialog', { name: 'UTM Builder' });
  await expect(builder.getByRole('status')).toHaveText('Loading the UTM builder');
  await expect(builder.getByRole('button', { name: 'Close' })).toBeVisible();

  utmModule.release();
  await expect(builder.getByLabel(/utm_source/)).toBeVisible();
  await expect(builder.getByRole('status')).toHaveCount(0);
});
