import { mainShortUrl, passBotCheck } from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { seriousAccessibilityViolations } from '../support/shell.ts';
import { openShortUrl, stackShortUrl } from '../support/short-links.ts';

/**
 * A guest creates a short link (link-creation 4, 5, 6): only guest domains are offered, the bot
 * check (the local hCaptcha sandbox) must pass before the form submits and starts over after the
 * attempt; the short URL redirects to the destination, and the link is in My URLs.
 */

function uniqueDestination(): string {
  return `https://example.com/e2e/guest/${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

test('a guest passes the bot check, creates a link that redirects, and finds it in My URLs', async ({
  page,
}) => {
  await page.goto('/app');
  const form = page.getByRole('region', { name: 'Shorten a link' });
  // The form's code loads on first use (and the dev server compiles it on the first run).
  await expect(form.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });

  // Guests get the domains that allow them; the others are listed, locked, with the reason.
  const domain = form.getByRole('combobox', { name: 'Domain' });
  await expect(domain).toHaveValue('shrt.localhost');
  await domain.click();
  await expect(page.getByRole('option', { name: /^tiny\.localhost/ })).toBeEnabled();
  await expect(page.getByRole('option', { name: /^go\.localhost/ })).toHaveAttribute(
    'data-combobox-disabled',
    'true',
  );
  await expect(
    page.getByRole('option', { name: /go\.localhost.*not available to guest users/ }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  // Seeded as hidden (disabled): never listed.
  await domain.click();
  await expect(page.getByRole('option', { name: /^old\.localhost/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(await seriousAccessibilityViolations(page, 'guest create form')).toEqual([]);

  const destination = uniqueDestination();
  await form.getByLabel('Long URL').fill(destination);
  const submit = form.getByRole('button', { name: 'Shorten URL' });
  await expect(submit).toBeDisabled();
  await passBotCheck(form);
  await expect(submit).toBeEnabled();
  await submit.click();

  const result = page.getByRole('region', { name: 'Your short link is ready' });
  await expect(result).toBeVisible();
  await expect(result.getByText(destination, { exact: true })).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'guest create result')).toEqual([]);
  const shortUrl = await mainShortUrl(result);
  const short = new URL(shortUrl);
  expect(short.hostname).toBe('shrt.localhost');
  const alias = short.pathname.slice(1);
  expect(shortUrl).toBe(stackShortUrl(short.hostname, alias));

  // The short URL as shown, asked as a browser would: it redirects to the destination.
  const visit = await openShortUrl(shortUrl);
  expect([301, 302]).toContain(visit.status);
  expect(visit.location).toBe(destination);

  // Shorten another: the form is back, the bot check starts over.
  await result.getByRole('button', { name: 'Shorten another' }).click();
  await expect(form.getByLabel('Long URL')).toHaveValue('');
  await expect(form.getByLabel('I am human')).not.toBeChecked();
  await expect(form.getByRole('button', { name: 'Shorten URL' })).toBeDisabled();

  // My URLs lists what this browser made.
  await page.goto('/app/my-urls');
  await expect(page.getByText(alias).first()).toBeVisible();
  await expect(page.getByText(destination).first()).toBeVisible();
});

test('a refused guest attempt shows the message under the URL and needs a new bot check', async ({
  page,
}) => {
  await page.goto('/app');
  const form = page.getByRole('region', { name: 'Shorten a link' });
  await expect(form.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
  await form.getByLabel('Long URL').fill('not a url');
  await passBotCheck(form);
  await form.getByRole('button', { name: 'Shorten URL' }).click();
  await expect(form.getByText('The url must be a valid URL.')).toBeVisible();
  // The URL field gets the focus back (after 300 ms), and the check starts over.
  await expect(form.getByLabel('Long URL')).toBeFocused();
  await expect(form.getByLabel('I am human')).not.toBeChecked();
  await expect(form.getByRole('button', { name: 'Shorten URL' })).toBeDisabled();
});
