import { appUrls, expect, test } from '../support/fixtures.ts';
import { stackEnv } from '../support/stack.ts';
import { nodeSupabaseClient } from '../support/supabase.ts';

test.describe('kiosk password recovery', () => {
  test('a user asks for a recovery e-mail, follows its link back to the kiosk and chooses a new password', async ({
    page,
    factories,
    mailbox,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser();
    const newPassword = `New-${user.password}`;

    await page.goto(`${appUrls.kiosk}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot password?' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await page.getByRole('button', { name: 'Reset password' }).click();

    const mail = await mailbox.waitFor(user.email);
    const verifyLink = mail.links.find((link) => link.includes('/auth/v1/verify'));
    expect(verifyLink, `a verify link in: ${mail.links.join(', ')}`).toBeDefined();
    // The link must bring the user back to the kiosk, not to Auth's site URL (the portal).
    expect(new URL(verifyLink!).searchParams.get('redirect_to')).toBe(
      `${appUrls.kiosk}/auth-callback`,
    );

    await page.goto(verifyLink!);
    await expect(page.getByText('Choose your password')).toBeVisible();
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'Confirm password' }).fill(newPassword);
    await saveScreenshot('kiosk-set-password');
    await page.getByRole('button', { name: 'Save' }).click();

    // Signed in with the new password; not staff, so the kiosk itself stays closed.
    await expect(page.getByText(`${user.email} is not a staff account.`)).toBeVisible();

    // The new password is the one Auth now accepts; the old one no longer works.
    const env = stackEnv();
    const { auth } = nodeSupabaseClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY);
    const withNew = await auth.signInWithPassword({ email: user.email, password: newPassword });
    expect(withNew.error).toBeNull();
    const withOld = await auth.signInWithPassword({ email: user.email, password: user.password });
    expect(withOld.error?.code).toBe('invalid_credentials');
  });
});
