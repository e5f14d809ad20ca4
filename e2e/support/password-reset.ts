import { expect, type Page } from '@playwright/test';
import type { MailboxReader } from './mailbox.ts';

/** The Auth verify link in the newest "Reset your password" mail to `email`. */
export async function resetLinkFromMail(mailbox: MailboxReader, email: string): Promise<string> {
  const mail = await mailbox.waitFor(email, { subject: 'Reset your password' });
  const link = mail.links.find((candidate) => candidate.includes('/auth/v1/verify'));
  expect(link, `a verify link in: ${mail.links.join(', ')}`).toBeDefined();
  return link!;
}

/** On the reset form a mail link leads to: sets `password` and lands signed in at home. */
export async function chooseNewPassword(page: Page, password: string): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
  ).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL('/app');
  await expect(page.getByText('Your password has been reset.')).toBeVisible();
}
