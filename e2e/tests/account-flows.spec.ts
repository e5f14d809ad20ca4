import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Factories } from '../support/factories.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { chooseNewPassword, resetLinkFromMail } from '../support/password-reset.ts';
import { logIn, serviceClient } from '../support/shell.ts';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Users made through the sign-up form are not the factory's: removed here after the test. */
const registeredUserIds: string[] = [];
test.afterEach(async () => {
  const admin = serviceClient();
  for (const id of registeredUserIds.splice(0)) {
    const { error } = await admin.auth.admin.deleteUser(id);
    if (error && error.status !== 404) throw new Error(`Could not delete ${id}: ${error.message}`);
  }
});

test.describe('account pages', () => {
  // Each test loads the portal in several pages and waits for mail: slow on a busy machine.
  test.describe.configure({ timeout: 180_000 });

  test('a visitor signs up, confirms the address from the mail, and is signed in', async ({
    page,
    browser,
    mailbox,
    saveScreenshot,
  }) => {
    const email = Factories.uniqueEmail('register');
    const password = `Pw-${randomUUID()}`;
    await page.goto('/app/register');
    await page.getByLabel('Name').fill('Ada Register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    const signup = page.waitForResponse((response) => response.url().includes('/auth/v1/signup'));
    await page.getByRole('button', { name: 'Sign up' }).click();
    const answer = (await (await signup).json()) as { id: string };
    registeredUserIds.push(answer.id);

    await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await saveScreenshot('account-register-sent');

    const mail = await mailbox.waitFor(email, { subject: 'Confirm your email address' });
    const verifyLink = mail.links.find((link) => link.includes('/auth/v1/verify'));
    expect(verifyLink, `a verify link in: ${mail.links.join(', ')}`).toBeDefined();
    expect(new URL(verifyLink!).searchParams.get('redirect_to')).toBe(
      `${appUrls.portal}/app/email/verify`,
    );

    await page.goto(verifyLink!);
    await expect(
      page.getByRole('heading', { level: 1, name: 'E-mail address verified' }),
    ).toBeVisible();
    // supabase-js took the session out of the fragment.
    await expect(page).toHaveURL(/\/app\/email\/verify#?$/);
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome, Ada Register' }),
    ).toBeVisible();

    // The same link a second time is spent: a guest opening it is told so and offered a new one.
    const guest = await browser.newPage();
    await guest.goto(verifyLink!);
    await expect(guest.getByRole('alert')).toContainText(
      'This verification link is invalid or has expired.',
    );
    await expect(guest.getByRole('button', { name: 'Send a new link' })).toBeVisible();
    await guest.close();
  });

  test('a user resets a forgotten password by mail and logs in with the new one', async ({
    page,
    factories,
    mailbox,
  }) => {
    const user = await factories.createConfirmedUser();
    const newPassword = `New-${randomUUID()}`;
    await page.goto('/app/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Reset your password' }),
    ).toBeVisible();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByText(
        'If an account uses this address, we sent it a link to choose a new password.',
      ),
    ).toBeVisible();

    const resetLink = await resetLinkFromMail(mailbox, user.email);
    expect(new URL(resetLink).searchParams.get('redirect_to')).toBe(
      `${appUrls.portal}/app/password/reset/email-link`,
    );

    await page.goto(resetLink);
    await chooseNewPassword(page, newPassword);

    await mainNav(page).getByRole('button', { name: 'Log out' }).click();
    await expect(mainNav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page.getByRole('alert')).toContainText('Wrong e-mail or password.');
    await logIn(page, user.email, newPassword);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  });

  test('logging out in one tab logs the other tabs out; logging in brings them back', async ({
    page,
    context,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();

    const other = await context.newPage();
    await other.goto('/app/terms');
    await expect(mainNav(other).getByRole('button', { name: 'Log out' })).toBeVisible();

    await mainNav(page).getByRole('button', { name: 'Log out' }).click();
    await expect(mainNav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

    await expect(other).toHaveURL('/app');
    await expect(mainNav(other).getByRole('link', { name: 'Sign In' })).toBeVisible();

    // And back: a login in the first tab shows the other one the homepage, signed in.
    await other.goto('/app/pricing');
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await expect(other).toHaveURL('/app');
    await expect(mainNav(other).getByRole('button', { name: 'Log out' })).toBeVisible();
  });
});
