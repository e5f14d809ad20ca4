import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn } from '../support/shell.ts';

/**
 * The past-due page (app-shell 4) is where a past-due trial user lives until they pay: its way
 * out leads somewhere else (the plans), the logo back to it; other users never see it.
 */
test('a past-due trial user finds a way out of the past-due page, not a loop', async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, 'pastdue@shortlane.test', DEMO_PASSWORD);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Your payment is past due' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/app\/subscribe$/);
  await expect(page.getByRole('link', { name: 'Back to the homepage' })).toHaveCount(0);

  // The logo leads where the guard would send the user anyway.
  await expect(page.getByRole('link', { name: /home$/ })).toHaveAttribute('href', '/app/subscribe');
  await page.getByRole('link', { name: 'See the plans' }).click();
  await expect(page).toHaveURL(/\/app\/pricing$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plans and pricing' })).toBeVisible();
});

test('a free user cannot open the past-due page', async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, 'free@shortlane.test', DEMO_PASSWORD);
  await expect(page.getByLabel('Long URL')).toBeVisible();
  await page.goto('/app/subscribe');
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole('heading', { name: 'Your payment is past due' })).toHaveCount(0);
});

test('a user on trial cannot open the past-due page', async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, 'trial@shortlane.test', DEMO_PASSWORD);
  // Signed in once the bar offers to log out (the bar itself is there on the login page too).
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' }),
  ).toBeVisible();
  await page.goto('/app/subscribe');
  await expect(page).toHaveURL(/\/app(\/dashboard)?$/);
  await expect(page.getByRole('heading', { name: 'Your payment is past due' })).toHaveCount(0);
});
