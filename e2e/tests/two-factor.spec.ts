import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { chooseNewPassword, resetLinkFromMail } from '../support/password-reset.ts';
import { enrollTotp, totpCode } from '../support/two-factor.ts';
import {
  logIn as fillLogIn,
  seriousAccessibilityViolations,
  serviceClient,
} from '../support/shell.ts';

/**
 * Two-factor authentication end to end (issue 5): enroll TOTP with the code computed from the
 * secret the page shows, log in again with a code, then with a backup code, which turns 2FA off
 * and asks to set it up again.
 */

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/app/login');
  await fillLogIn(page, email, password);
}

/** A screenshot in e2e/artifacts and no serious or critical axe-core finding. */
async function checkScreen(page: Page, save: (name: string) => Promise<void>, name: string) {
  await save(`two-factor-${name}`);
  expect(await seriousAccessibilityViolations(page, name)).toEqual([]);
}

async function logOut(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Log out' })
    .click();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
}

async function verifiedFactorCount(userId: string): Promise<number> {
  const { data, error } = await serviceClient().auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  return data.factors.filter((factor) => factor.status === 'verified').length;
}

test.describe('two-factor authentication', () => {
  test('enroll TOTP, log in with a code, then with a backup code that turns 2FA off', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    test.setTimeout(300_000);
    const user = await factories.createConfirmedUser();
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');

    // Enroll: the QR code, the secret as text, a confirmation code from the app.
    await page.goto('/app/settings/security');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(
      page.getByRole('img', { name: 'QR code to add Shortlane to your authenticator app' }),
    ).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await checkScreen(page, saveScreenshot, 'enroll');
    await page.getByLabel('Confirmation code').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText(/The code is invalid or has expired/)).toBeVisible();
    await page.getByLabel('Confirmation code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();

    // The backup codes, shown this once.
    const list = page.getByRole('list', { name: 'Backup codes' });
    await expect(list.getByRole('listitem')).toHaveCount(10);
    const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await checkScreen(page, saveScreenshot, 'backup-codes');
    await page.getByRole('button', { name: 'I have saved my codes' }).click();
    await expect(page.getByText('10 unused backup codes left.')).toBeVisible();
    expect(await verifiedFactorCount(user.id)).toBe(1);

    // Logging in again needs the code; the page remembers where the user was going.
    await logOut(page);
    await page.goto('/app/settings/profile');
    await expect(page).toHaveURL('/app/login?to=%2Fapp%2Fsettings%2Fprofile');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/app/login/2FA/verify?to=%2Fapp%2Fsettings%2Fprofile');
    // Nothing else opens before the code is given.
    await page.goto('/app/settings/security');
    await expect(page).toHaveURL('/app/login/2FA/verify?to=%2Fapp%2Fsettings%2Fsecurity');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Two-factor verification' }),
    ).toBeVisible();
    await checkScreen(page, saveScreenshot, 'verify');
    await page.getByLabel('Authentication code').fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('The code must be 6 digits.')).toBeVisible();
    await page.getByLabel('Authentication code').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL('/app/settings/security');
    await expect(page.getByText('10 unused backup codes left.')).toBeVisible();

    // Lost the phone: a backup code signs in, removes the factor and asks to enroll again.
    await logOut(page);
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app/login/2FA/verify');
    await page.getByRole('link', { name: /Use a backup code/ }).click();
    await expect(page).toHaveURL('/app/login/2FA/backup_code');
    await expect(page.getByRole('heading', { level: 1, name: 'Use a backup code' })).toBeVisible();
    await checkScreen(page, saveScreenshot, 'backup-code-login');
    await page.getByLabel('Backup code', { exact: true }).fill('AAAAA-AAAAA');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText(/The backup code is invalid or was already used/)).toBeVisible();
    await page.getByLabel('Backup code', { exact: true }).fill(codes[0]!.toLowerCase());
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/app/settings/security?reenroll=1');
    await expect(page.getByText('Set up two-factor authentication again')).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Turn on two-factor authentication' }),
    ).toBeVisible();
    expect(await verifiedFactorCount(user.id)).toBe(0);
    await checkScreen(page, saveScreenshot, 'enroll-again');

    // The next login needs the password only; the used code is spent.
    await logOut(page);
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
  });

  test('a user with 2FA resets a forgotten password: the mail link asks for the code first', async ({
    page,
    factories,
    mailbox,
  }) => {
    test.setTimeout(120_000);
    const user = await factories.createConfirmedUser();
    const secret = await enrollTotp(user.email, user.password);
    const newPassword = `New-${crypto.randomUUID()}`;

    await page.goto('/app/password/reset');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const resetLink = await resetLinkFromMail(mailbox, user.email);

    // The link signs in with the password factor only: the code comes before anything else,
    // and the reset form is where the code page goes on to.
    await page.goto(resetLink);
    await expect(page).toHaveURL('/app/login/2FA/verify?to=%2Fapp%2Fpassword%2Freset%2Femail-link');
    // A later step than the enrollment's code: no code is used twice.
    await page.getByLabel('Authentication code').fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await chooseNewPassword(page, newPassword);

    // The new password works, and the factor is still on: the next login asks for a code.
    await logOut(page);
    await logIn(page, user.email, newPassword);
    await expect(page).toHaveURL('/app/login/2FA/verify');
    expect(await verifiedFactorCount(user.id)).toBe(1);
  });
});
