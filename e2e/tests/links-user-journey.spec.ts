import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { subscribeToPro } from '../support/plans.ts';
import { logIn } from '../support/shell.ts';
import { DESKTOP_CHROME, openShortLink } from '../support/short-links.ts';

/**
 * A subscriber's whole journey with one link: create it with an alias, tags, an expiry and UTM
 * parameters; edit its destination; open the short URL; see the click in its analytics; archive
 * it, after which the short URL no longer redirects.
 */

test.use({ userAgent: DESKTOP_CHROME });

/** A common domain any signed-in user may use (supabase/seeds/20_links.sql). */
const DOMAIN = 'shrt.localhost';

/** `datetime-local` text for a moment `days` ahead, in the browser's (local) time. */
function localDateTime(days: number): string {
  const at = new Date(Date.now() + days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function addTags(page: Page, field: ReturnType<Page['getByRole']>, tags: string[]) {
  for (const tag of tags) {
    await field.fill(tag);
    await field.press('Enter');
  }
  await expect(page.getByText(tags[0]!, { exact: true }).first()).toBeVisible();
}

test('create with alias, tags, expiry and UTM; edit; visit; analytics; archive', async ({
  page,
  factories,
}) => {
  test.slow();
  const user = await factories.createConfirmedUser({ userMetadata: { name: 'Jo Journey' } });
  await subscribeToPro(user);
  const suffix = randomUUID().slice(0, 8);
  const alias = `journey-${suffix}`;
  const name = `${DOMAIN}/${alias}`;
  const longUrl = `https://example.com/journey/${suffix}`;
  const utm = 'utm_source=newsletter&utm_medium=email&utm_campaign=journey';

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app/dashboard');

  // Create, from the navigation bar's side panel.
  await page.getByRole('button', { name: 'Create Short Link' }).first().click();
  const panel = page.getByRole('dialog', { name: 'Create Short Link' });
  await expect(panel.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
  await panel.getByLabel('Long URL').fill(longUrl);
  await panel.getByRole('combobox', { name: 'Domain' }).click();
  await page.getByRole('option', { name: new RegExp(`^${DOMAIN.replace('.', '\\.')}`) }).click();
  await panel.getByLabel('Alias (optional)').fill(alias);
  await addTags(page, panel.getByRole('combobox', { name: 'Tags' }), ['journey', 'e2e']);
  await panel.getByRole('button', { name: 'Advanced options' }).click();
  await panel.getByLabel('Link expiry (your local time)').fill(localDateTime(3));

  await panel.getByRole('switch', { name: 'Add UTM parameters' }).click({ force: true });
  const builder = page.getByRole('dialog', { name: 'UTM Builder' });
  await builder.getByLabel('Campaign source (utm_source)').fill('newsletter');
  await builder.getByLabel('Campaign medium (utm_medium)').fill('email');
  await builder.getByLabel('Campaign name (utm_campaign)').fill('journey');
  await builder.getByRole('button', { name: 'Apply' }).click();
  await expect(builder).toHaveCount(0);
  await expect(panel.getByLabel('Long URL')).toHaveValue(`${longUrl}?${utm}`);

  await panel.getByRole('button', { name: 'Shorten URL' }).click();
  // Creating costs a credit: the form says how many and asks first (app-shell 5).
  await page
    .getByRole('dialog', { name: 'Use credits' })
    .getByRole('button', { name: 'Continue' })
    .click();
  // A subscriber goes to the dashboard, searching for the new alias.
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible({ timeout: 30_000 });
  // The side panel may still show the result: put it away.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(card.getByText('journey', { exact: true })).toBeVisible();
  await expect(card.getByText('e2e', { exact: true })).toBeVisible();

  // Edit the destination; the UTM parameters stay on it.
  const edited = `https://example.com/journey/${suffix}/edited?${utm}`;
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(dialog.getByLabel('Expires at (your local time)')).not.toHaveValue('');
  await dialog.getByLabel('Destination URL').fill(edited);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);

  // Open the short URL: it leads to the edited destination.
  await expect
    .poll(async () => (await openShortLink(DOMAIN, alias)).location, { timeout: 10_000 })
    .toBe(edited);

  // The click shows in the link's analytics for the last hour.
  await card.getByRole('link', { name: `Analytics of ${name}` }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `Analytics for ${name}` }),
  ).toBeVisible();
  await page.getByText('1h', { exact: true }).click();
  const total = page
    .getByRole('heading', { level: 2, name: 'Clicks', exact: true })
    .locator('xpath=following-sibling::*[1]');
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(page.getByRole('radio', { name: '1h' })).toBeChecked();
        // The figure comes with the page's data: read it once it is there, not before.
        await expect(total).toBeVisible({ timeout: 15_000 });
        return total.innerText();
      },
      // The click reaches the database with the redirect's next batch; a loaded machine reloads
      // slowly.
      { timeout: 60_000 },
    )
    .toBe('1');
  await expect(
    page
      .getByRole('region', { name: 'Clicks over time' })
      .getByRole('img', { name: /^Clicks over time: 1 clicks from/ }),
  ).toBeAttached();

  // Archive it: the short URL stops redirecting.
  await page.goto('/app/dashboard');
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await expect(page.getByText(`${name} was archived.`)).toBeVisible();
  await expect
    .poll(async () => (await openShortLink(DOMAIN, alias)).status, { timeout: 10_000 })
    .toBe(410);
  expect((await openShortLink(DOMAIN, alias)).location).toBeUndefined();
});
