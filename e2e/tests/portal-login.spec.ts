import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** axe-core's findings, one line each with the offending elements, for a readable diff. */
async function accessibilityViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

test.describe('portal login', () => {
  test('a user logs in, sees their e-mail on the landing page, and signs out', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await saveScreenshot('portal-login');

    await logIn(page, user.email, user.password);

    await expect(page).toHaveURL('/app');
    await expect(page.getByText(user.email)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
    await saveScreenshot('portal-landing');

    // Logging out leads to the homepage as a guest.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Log out' })
      .click();
    await expect(page).toHaveURL('/app');
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();

    // The session is gone for real: a page for users asks to log in again.
    await page.goto('/app/settings/profile');
    await expect(page).toHaveURL('/app/login?to=%2Fapp%2Fsettings%2Fprofile');
  });

  test('a guest opening a page for users is sent to login and brought back after logging in', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/dashboard');
    await expect(page).toHaveURL('/app/login?to=%2Fapp%2Fdashboard');

    await logIn(page, user.email, user.password);

    await expect(page).toHaveURL('/app/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The session survives a reload (stored by supabase-js).
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page).toHaveURL('/app/dashboard');
  });

  test('a wrong password is refused with an announced message', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, `${user.password}-wrong`);

    await expect(page.getByRole('alert')).toContainText('Wrong e-mail or password.');
    await expect(page).toHaveURL('/app/login');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
    await saveScreenshot('portal-login-refused');
  });

  test('the login and landing pages have no detectable accessibility violations', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('The email field is required.')).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);

    await logIn(page, user.email, user.password);
    await expect(page.getByText(user.email)).toBeVisible();
    // The pointer stays where "Log in" was; on the landing that can be a field whose hover
    // tooltip (in a portal, outside the landmarks) is not what this scan is about.
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
