import type { ConsoleMessage, Page } from '@playwright/test';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * The kiosk reads as finished: no screen logs a warning or an error to the console (react-admin's
 * "Missing translation for key", React's warnings…), on every resource's list and first record,
 * and through impersonation.
 */

const MENU = [
  'Users',
  'Organizations',
  'Teams',
  'Aliases',
  'Long URLs',
  'System stats',
  'Link stats',
  'Domains',
  'Banned domains',
  'IP blocks',
  'Password dictionary',
  'TLD overprice',
  'DNS zones',
  'Announcements',
  'Surveys',
  'Access invitations',
  'Quote requests',
  'API tokens',
];

function consoleComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning' || message.type() === 'error') {
      complaints.push(`${page.url()}: ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => complaints.push(`${page.url()}: ${error.message}`));
  return complaints;
}

/** Waits for a list to have loaded: its table, or react-admin's empty-list page. */
async function listLoaded(page: Page) {
  await expect(
    page
      .getByRole('table')
      .or(page.getByText(/No .* yet|No results found/))
      .first(),
  ).toBeVisible();
  await expect(page.locator('.MuiLinearProgress-root')).toHaveCount(0);
}

test('every kiosk screen and the impersonation flow keep the console quiet', async ({
  page,
  context,
  factories,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  const complaints = consoleComplaints(page);
  const target = await factories.createConfirmedUser({ userMetadata: { name: 'Quiet Target' } });
  await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));

  for (const item of MENU) {
    await page.getByRole('menuitem', { name: item, exact: true }).click();
    const listUrl = page.url();
    if (item.endsWith('stats')) {
      await expect(page.getByRole('heading').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      continue;
    }
    await listLoaded(page);
    // The first record, as staff open it from the list (a show or an edit page).
    const firstRow = page.locator('tbody tr').first();
    if ((await firstRow.count()) > 0) {
      // Lists without a record page (password dictionary…) stay where they are.
      await firstRow.locator('td').nth(1).click();
      await page.waitForLoadState('networkidle');
      if (page.url() !== listUrl)
        await expect(page.locator('.MuiLinearProgress-root')).toHaveCount(0);
    }
  }

  // A user's page, every tab, and impersonation from it.
  await page.goto(`${appUrls.kiosk}/user/${target.id}`);
  await expect(page).toHaveURL(new RegExp(`/users/${target.id}/show$`));
  for (const tab of ['Plan', 'Teams and organizations', 'API tokens', 'Security', 'Profile']) {
    await page.getByRole('tab', { name: tab }).click();
  }
  await expect(page.getByText('Staff', { exact: true })).toBeVisible();
  await expect(page.getByText('Hide invoices', { exact: true })).toBeVisible();
  await saveScreenshot('kiosk-user-profile');
  const [portal] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Impersonate' }).click(),
  ]);
  await expect(page.getByText(`The portal opened as ${target.email}`)).toBeVisible();
  await expect(portal).toHaveURL(`${appUrls.portal}/app`);
  await portal.close();

  expect(complaints).toEqual([]);
});
