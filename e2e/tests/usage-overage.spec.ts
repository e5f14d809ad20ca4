import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { renewNow, subscribeWithCard } from '../support/billing.ts';
import { openCreatePanel, shorten, uniqueDestination } from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';

/**
 * Metered overage end to end (issue 13 item 2), on billing type 1 against the Stripe sandbox: a
 * subscriber at the active-link limit meets the plan-limit modal, turns overage on in Manage
 * Overages, creates more links; the period's end (the sandbox's test clock) reports the units
 * over as an invoice item, and the invoice after it carries the overage as its own line.
 */
test.describe.configure({ timeout: 300_000 });

const origin = (page: Page) => new URL(page.url()).origin;

/** Creates a link in the Create panel; a subscriber is then taken to it in the dashboard. */
async function createLink(page: Page) {
  const destination = uniqueDestination('overage');
  const form = await openCreatePanel(page);
  await form.getByLabel('Long URL').fill(destination);
  await shorten(page);
  await expect(page.getByText(destination)).toBeVisible({ timeout: 30_000 });
  // The panel (or, at the limit, the plan-limit modal in its place) is closed again: Escape
  // reaches it because the result took the focus from the form it replaced.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test('a user over the limit turns overage on, creates more links, and the next invoice carries the overage line', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser();
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await subscribeWithCard(user, 'pro', 'monthly', { portalOrigin: origin(page) });
  const db = serviceClient();
  const profile = await db
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  const accountId = profile.data!.personal_account_id as string;
  // Staff's limit for this account: one active link, reached by the first one.
  const limited = await db
    .from('account_usage')
    .upsert({ account_id: accountId, name: 'max_active_aliases', limit: 1 });
  expect(limited.error).toBeNull();

  await page.goto('/app/dashboard');
  await createLink(page);

  // At 100 % without overage, Create opens the plan-limit modal.
  await page.reload();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Create Short Link' })
    .click();
  const modal = page.getByRole('dialog', {
    name: "You've hit your plan's limit for creating links",
  });
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await modal.getByRole('link', { name: 'Manage Overages' }).click();
  await expect(page).toHaveURL('/app/settings/usage');

  const overages = page.getByRole('region', { name: 'Manage Overages' });
  const toggle = page.getByRole('switch', { name: "Allow usage past my plan's limits" });
  await expect(toggle).not.toBeChecked({ timeout: 30_000 });
  await toggle.click({ force: true });
  await expect(toggle).toBeChecked();

  await createLink(page);
  await createLink(page);
  await page.goto('/app/settings/usage');
  await expect(page.getByLabel('Overage this period')).toContainText('2 units over, about $0.04', {
    timeout: 30_000,
  });

  // The period ends: the renewal's webhook closes it, the reporter bills the overage once.
  await renewNow(user, 'paid');
  const billed = page.getByRole('table', { name: 'Overage billed' });
  await expect(async () => {
    await page.goto('/app/settings/usage');
    await expect(billed).toContainText('On your next invoice', { timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  await expect(billed).toContainText('$0.04');
  await expect(overages).toBeVisible();

  // Bill now: the next period's invoice carries the overage as its own line.
  await renewNow(user, 'paid');
  const invoices = page.getByRole('table', { name: 'Invoices' });
  const buttons = invoices.getByRole('button', { name: /^Download invoice SBX-\d+ \(PDF\)$/ });
  await expect(async () => {
    await page.goto('/app/settings/invoices');
    await expect(buttons).toHaveCount(3, { timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), buttons.first().click()]);
  const text = (await readFile((await download.path())!)).toString('latin1');
  expect(text).toMatch(/Overage [\d-]+ to [\d-]+: 2 units over the plan limits: USD 0\.04/);
});
