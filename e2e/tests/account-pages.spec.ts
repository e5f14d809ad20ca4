import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { seriousAccessibilityViolations, serviceClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * Account pages outside the app's core (issue 13, item 5): an Enterprise quote request that staff
 * answer in the kiosk, and the one-click mailing opt-out of a product e-mail's link.
 */
test.describe('account pages', () => {
  test('a guest asks for a quote, and staff answer it in the kiosk', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    // Portal and kiosk, each first loaded by the dev server: slow on a busy machine.
    test.setTimeout(180_000);
    const email = `quote-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${appUrls.portal}/app/pricing/quote`);
    await expect(page.getByRole('heading', { level: 1, name: 'Request a quote' })).toBeVisible();

    // Nothing filled in: each required field says what it needs, and nothing is sent.
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('Enter your name (at most 100 characters).')).toBeVisible();
    await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();

    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Company').fill('Navy Labs');
    await page.getByLabel('Links a month').fill('50000');
    await page.getByLabel('People who will use it').fill('40');
    await page.getByLabel('What else should we know?').fill('We need single sign-on.');
    expect(await seriousAccessibilityViolations(page, 'quote form')).toEqual([]);
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `Thank you. We will write to ${email} within one business day.`,
    );
    await saveScreenshot('pricing-quote-sent');

    // Staff find it in the list, open it, and mark it answered with a note.
    await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
    await page.getByRole('menuitem', { name: 'Quote requests', exact: true }).click();
    await page.getByPlaceholder('Name, e-mail or company').fill(email);
    // The search applies after a pause by moving the list's address: wait for it, or it would
    // come after the click below and lead back from the request to the list.
    await expect(page).toHaveURL(/filter=/);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('New');
    await expect(row).toContainText('50,000');
    await row.getByRole('cell', { name: 'Grace Hopper' }).click();
    await expect(page).toHaveURL(/\/quote-requests\/[0-9a-f-]{36}$/);
    await expect(page.getByText('We need single sign-on.')).toBeVisible();
    // The record has loaded once react-admin's progress bar is gone: the form no longer remounts.
    await expect(page.locator('.MuiLinearProgress-root')).toHaveCount(0);
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Answered' }).click();
    await page.getByRole('textbox', { name: 'Staff note' }).fill('Called on Monday');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/quote-requests(\?.*)?$/);
    const { data: stored } = await serviceClient()
      .from('quote_requests')
      .select('state, staff_note')
      .eq('email', email)
      .single();
    expect(stored).toEqual({ state: 'answered', staff_note: 'Called on Monday' });
  });

  test('a product e-mail’s link unsubscribes without a login, and resubscribes', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    // What a mail sender puts in the link: the token is out of the API's reach, so the test asks
    // the database as a sender does (app.mailing_unsubscribe_token).
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    const { rows } = await db
      .query<{ token: string }>('select app.mailing_unsubscribe_token($1) as token', [user.id])
      .finally(() => db.end());
    const token = rows[0]!.token;
    const service = serviceClient();

    await page.goto(`${appUrls.portal}/app/unsubscribe?token=${token}`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    const masked = `${user.email.slice(0, 2)}***${user.email.slice(user.email.indexOf('@'))}`;
    await expect(page.getByRole('status')).toHaveText(
      `${masked} will no longer receive product e-mails.`,
    );
    const status = async () =>
      (await service.from('profiles').select('status').eq('id', user.id).single()).data?.status;
    expect(await status()).toBe(8);

    await page.getByRole('button', { name: 'Resubscribe' }).click();
    await expect(page.getByRole('status')).toHaveText(`${masked} receives product e-mails again.`);
    expect(await status()).toBe(0);

    await page.goto(`${appUrls.portal}/app/unsubscribe?token=${'0'.repeat(48)}`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('alert')).toContainText('This unsubscribe link is not valid.');
  });
});
