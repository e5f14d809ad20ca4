import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient, signedInClient } from '../support/shell.ts';
import { fetchShortUrl, stackShortUrl } from '../support/short-links.ts';

/** A common domain anyone signed in may use (supabase/seeds/20_links.sql). */
const DOMAIN = 'shrt.localhost';
const META_PIXEL = '123456789012345';

async function clickCount(alias: string): Promise<number> {
  const admin = serviceClient();
  const { data: link } = await admin.from('aliases').select('id').eq('alias', alias).single();
  const { count } = await admin
    .from('clicks')
    .select('*', { count: 'exact', head: true })
    .eq('alias_id', link?.id ?? '');
  return count ?? 0;
}

/**
 * The browser reaches the short domain through the stack (`*.localhost` is not resolved here)
 * and the outside world through stand-ins: Meta's script, and the destination.
 */
async function routeTheWorld(page: Page, short: string) {
  const pixelRequests: string[] = [];
  const shortAnswers: string[] = [];
  await page.route(`${new URL(short).origin}/**`, async (route) => {
    const answer = await fetchShortUrl(route.request().url(), await route.request().allHeaders());
    if (route.request().url() === short)
      shortAnswers.push(`${answer.status} ${answer.headers.location ?? ''}`.trim());
    await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body });
  });
  await page.route('https://connect.facebook.net/**', async (route) => {
    pixelRequests.push(route.request().url());
    await route.fulfill({
      contentType: 'text/javascript',
      body: 'window.__metaPixelLoaded = true;',
    });
  });
  await page.route('https://example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Landed</title><h1>Landed</h1>' }),
  );
  return { pixelRequests, shortAnswers };
}

test('a verified user adds a Meta pixel and puts it on a link; a visit fires it, DNT skips it', async ({
  page,
  factories,
}) => {
  // Two apps, a settings page, the link dialog and two visits: more than the usual minute.
  test.slow();
  const user = await factories.createConfirmedUser({ userMetadata: { name: 'Pia Pixel' } });
  const destination = `https://example.com/e2e/pixel-${randomUUID().slice(0, 8)}`;
  const client = await signedInClient(user);
  // A free plan draws the alias: the user's only link.
  const { error } = await client.rpc('create_link', { p_url: destination, p_domain: DOMAIN });
  expect(error).toBeNull();
  const { data: link } = await client.from('aliases').select('alias').single();
  const alias = link!.alias;
  await client.auth.signOut();

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  // Hidden from the sidebar, reached by its address.
  await page.goto('/app/settings/pixel-scripts');
  await expect(page.getByRole('heading', { level: 1, name: 'Custom pixel scripts' })).toBeVisible();
  await expect(page.getByText(/No pixels yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Add pixel' }).click();
  const form = page.getByRole('dialog', { name: 'Add pixel' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Spring retargeting');
  await form.getByRole('textbox', { name: 'Pixel ID' }).fill(META_PIXEL);
  await form.getByRole('button', { name: 'Save pixel' }).click();
  await expect(page.getByText('Pixel added.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Spring retargeting' })).toBeVisible();

  await page.goto('/app/dashboard');
  await page.getByRole('button', { name: `More actions for ${DOMAIN}/${alias}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${DOMAIN}/${alias}` });
  const pixels = dialog.getByRole('region', { name: 'Retargeting pixels' });
  // Mantine's pills box takes the click meant for its input.
  await pixels.getByRole('combobox', { name: 'Pixels fired on a visit' }).click({ force: true });
  await page.getByRole('option', { name: 'Spring retargeting (Meta (Facebook))' }).click();
  // The list stays open for more; a click beside it closes it.
  await pixels.getByRole('heading', { name: 'Retargeting pixels' }).click();
  await pixels.getByRole('button', { name: 'Save pixels' }).click();
  await expect(page.getByText('The pixels were saved.')).toBeVisible();

  // A visit: the pixel page fires Meta's pixel, then lands on the destination.
  const short = stackShortUrl(DOMAIN, alias);
  const visitor = await page.context().browser()!.newPage();
  const { pixelRequests, shortAnswers } = await routeTheWorld(visitor, short);
  await visitor.goto(short);
  await expect(visitor).toHaveURL(destination);
  await expect(visitor.getByRole('heading', { name: 'Landed' })).toBeVisible();
  expect(shortAnswers).toEqual(['200']);
  expect(pixelRequests).toEqual(['https://connect.facebook.net/en_US/fbevents.js']);
  await expect.poll(() => clickCount(alias)).toBe(1);

  // With Do Not Track: the short link answers the browser with the plain redirect, no pixel
  // page; the click still counts, once. (Chromium does not pass a redirect that a route
  // fulfilled back through the routes, so it cannot land on the stand-in destination here.)
  await visitor.setExtraHTTPHeaders({ DNT: '1' });
  await visitor.goto(short).catch(() => null);
  await expect.poll(() => shortAnswers.length).toBe(2);
  expect(shortAnswers[1]).toMatch(new RegExp(`^30[12] ${destination}$`));
  expect(pixelRequests).toHaveLength(1);
  await expect.poll(() => clickCount(alias)).toBe(2);
  await visitor.close();
});
