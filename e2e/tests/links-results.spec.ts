import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  mainShortUrl,
  openAdvancedOptions,
  shorten,
  uniqueDestination,
} from '../support/create-form.ts';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { openShortUrl, stackShortUrl } from '../support/short-links.ts';
import {
  BREAKPOINT_WIDTHS,
  DEMO_PASSWORD,
  logIn,
  seriousAccessibilityViolations,
} from '../support/shell.ts';

/**
 * The create form's result view and UTM builder (link-creation 2, 4, 5 and 9) as the free demo
 * user (no analytics: the result stays on the home page): QR code downloads, copy, share, and
 * presets saved through create_utm_preset.
 */

const FREE_USER = 'free@shortlane.test';

async function logInToHome(page: Page): Promise<void> {
  await page.goto('/app/login');
  await logIn(page, FREE_USER, DEMO_PASSWORD);
  await expect(page.getByLabel('Long URL')).toBeVisible();
}

/** The width and height a PNG's IHDR chunk declares. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test.describe('the single link result', () => {
  test('QR downloads, copy and share of a new short link', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: appUrls.portal,
    });
    await logInToHome(page);
    const destination = uniqueDestination('results');
    await page.getByLabel('Long URL').fill(destination);
    await shorten(page);

    const result = page.getByRole('region', { name: 'Your short link is ready' });
    await expect(result).toBeVisible();
    await expect(result.getByText(destination, { exact: true })).toBeVisible();
    const shortUrl = await mainShortUrl(result);
    // On the test stack's gateway port: http://<domain>:<port>/<alias>.
    const { hostname, pathname } = new URL(shortUrl);
    expect(shortUrl).toBe(stackShortUrl(hostname, pathname.slice(1)));
    await expect(result.getByRole('link', { name: 'My URLs' })).toBeVisible();
    await expect(result.getByRole('link', { name: `Visit ${shortUrl}` })).toHaveAttribute(
      'href',
      shortUrl,
    );

    // Copy: the clipboard holds the short URL, and a notice says so.
    await result.getByRole('button', { name: `Copy ${shortUrl}` }).click();
    await expect(page.getByText('Copied to clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);
    // What Visit opens and Copy copied really answers: the redirect to the destination.
    const visit = await openShortUrl(shortUrl);
    expect([301, 302]).toContain(visit.status);
    expect(visit.location).toBe(destination);

    // Share: the five networks, each opening in a new tab.
    await result.getByRole('button', { name: `Share ${shortUrl}` }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Facebook',
      'Twitter',
      'WhatsApp',
      'LinkedIn',
      'Email',
    ]);
    await expect(menu.getByRole('menuitem', { name: 'LinkedIn' })).toHaveAttribute(
      'href',
      `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(shortUrl)}`,
    );
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // QR: shown at 127 px; the PNG 1200 download is 1200 × 1200.
    await result.getByRole('button', { name: `QR code of ${shortUrl}` }).click();
    const dialog = page.getByRole('dialog', { name: 'QR code' });
    const image = dialog.getByRole('img', { name: `QR code of ${shortUrl}` });
    await expect(image).toBeVisible();
    expect(await image.boundingBox()).toMatchObject({ width: 127, height: 127 });
    for (const [label, size] of [
      ['PNG 1200', 1200],
      ['PNG', 400],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: `Download ${label}`, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`-${size}\\.png$`));
      expect(pngSize(await readFile(await download.path()))).toEqual({ width: size, height: size });
    }
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download SVG' }).click(),
    ]);
    expect(await readFile(await svg.path(), 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Shorten another: back to an empty form.
    await result.getByRole('button', { name: 'Shorten another' }).click();
    await expect(page.getByLabel('Long URL')).toHaveValue('');
  });
});

test.describe('the UTM builder', () => {
  test('adds the parameters, saves a preset and refuses a name already taken', async ({ page }) => {
    await logInToHome(page);
    const destination = uniqueDestination('utm');
    const presetName = `E2E ${Date.now()}`;
    await page.getByLabel('Long URL').fill(destination);
    await openAdvancedOptions(page);
    await page.getByLabel('Add UTM parameters').check();

    const builder = page.getByRole('dialog', { name: 'UTM Builder' });
    await expect(builder).toBeVisible();
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder.getByText('The utm source field is required.')).toBeVisible();
    await builder.getByLabel(/utm_source/).fill('news letter');
    await builder.getByLabel(/utm_medium/).fill('email');
    await builder.getByLabel(/utm_campaign/).fill('spring');
    await builder.getByLabel('Save as a new preset').check();
    await builder.getByLabel(/Preset name/).fill(presetName);
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder).toBeHidden();
    await expect(page.getByLabel('Long URL')).toHaveValue(
      `${destination}?utm_source=news%20letter&utm_medium=email&utm_campaign=spring`,
    );

    // Turning the toggle off strips the parameters again.
    await page.getByLabel('Add UTM parameters').uncheck();
    await expect(page.getByLabel('Long URL')).toHaveValue(destination);

    // The saved preset is listed next time, and fills the fields.
    await page.getByLabel('Add UTM parameters').check();
    await builder.getByRole('combobox', { name: 'Preset' }).click();
    await page.getByRole('option', { name: presetName }).click();
    await expect(builder.getByLabel(/utm_source/)).toHaveValue('news letter');

    // The same name again: the server's 422 lands on the name field.
    await builder.getByLabel('Save as a new preset').check();
    await builder.getByLabel(/Preset name/).fill(presetName);
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder.getByText('The name has already been taken.')).toBeVisible();
    await expect(builder).toBeVisible();
  });
});

/** Waits out an opening transition: axe would judge the contrast of half-faded text. */
async function untilOpaque(page: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  await expect
    .poll(() =>
      locator.evaluate((element) => {
        let opacity = 1;
        for (let node: Element | null = element; node; node = node.parentElement) {
          opacity *= Number(getComputedStyle(node).opacity);
        }
        return opacity;
      }),
    )
    .toBe(1);
}

/**
 * axe's serious or critical findings inside one open modal: the page behind it is dimmed by the
 * overlay on purpose, so its contrast is not judged while the modal is open.
 */
async function seriousViolationsIn(page: Page, dialogName: string): Promise<string[]> {
  const title = await page
    .getByRole('dialog', { name: dialogName })
    .getAttribute('aria-labelledby');
  expect(title).toBeTruthy();
  const { violations } = await new AxeBuilder({ page })
    .include(`[role="dialog"][aria-labelledby="${title}"]`)
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
}

/**
 * The builder, the result and its QR and share views at the four breakpoints: screenshots in
 * e2e/artifacts/ and no serious or critical axe finding (as shell-screens.spec.ts does for the
 * pages; these views only exist after steps in the create form, so they are walked to here).
 */
for (const width of BREAKPOINT_WIDTHS) {
  test(`result screens at ${width} px`, async ({ page, saveScreenshot }) => {
    await page.setViewportSize({ width, height: 900 });
    const check = async (name: string, ready: (page: Page) => Promise<void>, modal?: string) => {
      await ready(page);
      await saveScreenshot(`links-${name}-${width}`);
      if (modal == null) {
        expect(await seriousAccessibilityViolations(page, `${name} at ${width} px`)).toEqual([]);
      } else {
        expect(await seriousViolationsIn(page, modal)).toEqual([]);
      }
    };

    await logInToHome(page);
    await page.getByLabel('Long URL').fill(uniqueDestination(`screens-${width}`));
    await openAdvancedOptions(page);
    await page.getByLabel('Add UTM parameters').check();
    const builder = page.getByRole('dialog', { name: 'UTM Builder' });
    await check('utm-builder', () => untilOpaque(page, builder), 'UTM Builder');
    await builder.getByLabel(/utm_source/).fill('newsletter');
    await builder.getByLabel(/utm_medium/).fill('email');
    await builder.getByLabel(/utm_campaign/).fill('screens');
    await builder.getByRole('button', { name: 'Apply' }).click();
    await expect(builder).toBeHidden();

    await shorten(page);
    const result = page.getByRole('region', { name: 'Your short link is ready' });
    await check('result', () => expect(result).toBeVisible());

    await result.getByRole('button', { name: /^QR code of / }).click();
    const qr = page.getByRole('dialog', { name: 'QR code' });
    await check(
      'qr-code',
      () => untilOpaque(page, qr.getByRole('img', { name: /^QR code of / })),
      'QR code',
    );
    await page.keyboard.press('Escape');
    await expect(qr).toBeHidden();

    await result.getByRole('button', { name: /^Share / }).click();
    await check('share-menu', (p) => untilOpaque(p, p.getByRole('menuitem', { name: 'Email' })));
  });
}
