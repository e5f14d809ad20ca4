import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { mainShortUrl, shorten } from '../support/create-form.ts';
import { verifyShownRecords } from '../support/dns.ts';
import { subscribeToPro } from '../support/plans.ts';
import { logIn } from '../support/shell.ts';
import { openShortUrl } from '../support/short-links.ts';

/**
 * Branded domains (issue 14): a Pro user adds a domain, sets the records it shows in the DNS
 * sandbox (what the customer would do at their DNS provider), verifies it and shortens a link on
 * it; a free user's "Add Domain" leads to billing.
 */

test('a Pro user adds and verifies a domain, then shortens a link on it', async ({
  page,
  factories,
}) => {
  test.slow();
  const user = await factories.createConfirmedUser();
  await subscribeToPro(user);
  const domain = `e2e-${randomUUID().slice(0, 8)}.example`;

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  // Signed in once the login page has sent the user on.
  await expect(page).not.toHaveURL(/\/app\/login/);
  await page.goto('/app/settings/branded-domains');
  await expect(page.getByRole('heading', { level: 1, name: 'Branded domains' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Domain' }).click();
  await expect(page).toHaveURL('/app/settings/branded-domains/create');
  await page.getByRole('textbox', { name: /Domain name/ }).fill(domain);
  await page.getByRole('checkbox', { name: /only for .* short links/ }).check();
  await page.getByRole('button', { name: 'Add domain' }).click();

  await expect(page).toHaveURL(/\/app\/settings\/verify\?domain=/);
  await verifyShownRecords(page, domain);

  // A link on the new domain, from the navigation's create panel.
  await page.getByRole('button', { name: 'Create Short Link' }).first().click();
  const panel = page.getByRole('dialog', { name: 'Create Short Link' });
  await expect(panel.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
  const longUrl = `https://example.com/e2e/branded/${randomUUID().slice(0, 8)}`;
  await panel.getByLabel('Long URL').fill(longUrl);
  await panel.getByRole('combobox', { name: 'Domain' }).click();
  await page.getByRole('option', { name: new RegExp(`^${domain.replace(/\./g, '\\.')}`) }).click();
  await shorten(page);
  const result = page.getByRole('region', { name: 'Your short link is ready' });
  await expect(result).toBeVisible();
  const shortUrl = await mainShortUrl(result);
  expect(new URL(shortUrl).hostname).toBe(domain);
  const visit = await openShortUrl(shortUrl);
  expect([301, 302]).toContain(visit.status);
  expect(visit.location).toBe(longUrl);
});

test('a free user is sent to billing by Add Domain', async ({ page, factories }) => {
  const user = await factories.createConfirmedUser();
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  // Signed in once the login page has sent the user on.
  await expect(page).not.toHaveURL(/\/app\/login/);
  await page.goto('/app/settings/branded-domains');
  await page.getByRole('button', { name: 'Add Domain' }).click();
  await expect(page).toHaveURL('/app/settings/subscription');
  await expect(page.getByText('This needs a subscription.')).toBeVisible();
});
