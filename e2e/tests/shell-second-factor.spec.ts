import type { Page, Request } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { BREAKPOINT_WIDTHS, logIn } from '../support/shell.ts';
import { enrollTotp, totpCode } from '../support/two-factor.ts';

/**
 * A password-only session that still owes its TOTP code shows nothing of the account: not the
 * notifications, invitations, Billing nor the user's name, on the desktop bar or in the mobile
 * menu, and asks the database nothing about the account. Once the code is given, all appear.
 */

const NAME = 'Tess Totp';
/** What the account's own data is read from; the public tables (plans, domains…) are not. */
const ACCOUNT_TABLE =
  /\/rest\/v1\/(profiles|accounts|subscriptions|teams|team_members|organizations|notifications|invitations|cart_items|surveys|rpc\/account_limits)\b/;

function accountReads(page: Page): string[] {
  const reads: string[] = [];
  page.on('request', (request: Request) => {
    if (ACCOUNT_TABLE.test(request.url())) reads.push(request.url());
  });
  return reads;
}

const VIEWPORTS = [
  { label: 'desktop', width: BREAKPOINT_WIDTHS[3], mobile: false },
  { label: 'mobile', width: BREAKPOINT_WIDTHS[0], mobile: true },
];

for (const viewport of VIEWPORTS) {
  test(`the ${viewport.label} shell keeps the account out until the code is given`, async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: 800 });
    const user = await factories.createConfirmedUser({ userMetadata: { name: NAME } });
    const secret = await enrollTotp(user.email, user.password);
    const reads = accountReads(page);

    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/app\/login\/2FA\/verify/);
    await expect(page.getByLabel('Authentication code')).toBeVisible();

    const shellBeforeCode = async () => {
      if (viewport.mobile) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        return page.getByRole('navigation', { name: 'Mobile' });
      }
      return page.getByRole('navigation', { name: 'Main' });
    };
    const shell = await shellBeforeCode();
    await expect(shell.getByRole('button', { name: 'Log out' })).toBeVisible();
    await saveScreenshot(`shell-second-factor-${viewport.label}-before`);
    for (const name of [/Notifications/, /Invitations/, /Billing/, new RegExp(NAME)]) {
      await expect(shell.getByRole('link', { name })).toHaveCount(0);
      await expect(shell.getByRole('button', { name })).toHaveCount(0);
    }
    await expect(page.getByText(NAME)).toHaveCount(0);
    expect(reads).toEqual([]);
    if (viewport.mobile) await page.keyboard.press('Escape');

    await page.getByLabel('Authentication code').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).not.toHaveURL(/\/app\/login/);

    if (viewport.mobile) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Mobile' });
      await expect(menu.getByRole('link', { name: NAME })).toBeVisible();
      await expect(menu.getByRole('link', { name: 'Billing' })).toBeVisible();
      await expect(menu.getByRole('link', { name: /Notifications/ })).toBeVisible();
      await expect(menu.getByRole('button', { name: /Invitations/ })).toBeVisible();
    } else {
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: NAME })).toBeVisible();
      await expect(nav.getByRole('button', { name: /Notifications/ })).toBeVisible();
      await expect(nav.getByRole('button', { name: /Invitations/ })).toBeVisible();
    }
    await saveScreenshot(`shell-second-factor-${viewport.label}-after`);
    expect(reads.length).toBeGreaterThan(0);
  });
}
