import { appUrls, expect, test } from '../support/fixtures.ts';
import { makeStaff, signInToKiosk } from './kiosk-support.ts';

test.describe('kiosk login', () => {
  test('staff log in to the kiosk and land on the users list', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const staff = await makeStaff(await factories.createConfirmedUser());
    await page.goto(appUrls.kiosk);
    // A visitor without a session is sent to the login page.
    await expect(page).toHaveURL(`${appUrls.kiosk}/login`);
    await saveScreenshot('kiosk-login');

    await signInToKiosk(page, staff);

    // The kiosk defaults to users.
    await expect(page).toHaveURL(`${appUrls.kiosk}/users`);
    await expect(page.getByRole('table')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Banned domains' })).toBeVisible();
    await saveScreenshot('kiosk-users');
  });

  test('a user who is not staff is denied, and sees nothing of the kiosk', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser();
    await signInToKiosk(page, user);

    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
    await expect(page.getByText(`${user.email} is not a staff account.`)).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('menuitem')).toHaveCount(0);
    await saveScreenshot('kiosk-access-denied');

    // A deep link to a screen is denied just the same.
    await page.goto(`${appUrls.kiosk}/banned_domains`);
    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${appUrls.kiosk}/login`);
  });

  test('a wrong password keeps the visitor on the login page', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await signInToKiosk(page, { ...user, password: 'not-the-password' });

    // react-admin shows the auth provider's error (GoTrue's message) in a notification.
    await expect(page.getByText('Invalid login credentials')).toBeVisible();
    await expect(page).toHaveURL(`${appUrls.kiosk}/login`);
  });
});
