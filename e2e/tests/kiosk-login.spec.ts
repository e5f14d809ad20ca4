import { appUrls, expect, test } from '../support/fixtures.ts';

test.describe('kiosk login', () => {
  test('a user logs in to the kiosk and lands on the dashboard', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto(appUrls.kiosk);
    // A visitor without a session is sent to the login page.
    await expect(page).toHaveURL(`${appUrls.kiosk}/login`);
    await saveScreenshot('kiosk-login');

    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('heading', { name: 'Shortlane kiosk' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${user.email}`)).toBeVisible();
    await expect(page).toHaveURL(`${appUrls.kiosk}/`);
    await saveScreenshot('kiosk-dashboard');
  });

  test('a wrong password keeps the visitor on the login page', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await page.goto(`${appUrls.kiosk}/login`);
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // react-admin shows the auth provider's error (GoTrue's message) in a notification.
    await expect(page.getByText('Invalid login credentials')).toBeVisible();
    await expect(page).toHaveURL(`${appUrls.kiosk}/login`);
  });
});
