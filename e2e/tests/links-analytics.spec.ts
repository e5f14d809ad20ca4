import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn } from '../support/shell.ts';
import { DESKTOP_CHROME, openShortLink } from '../support/short-links.ts';

/**
 * Link analytics (portal analytics/{hash}) on the demo seed (supabase/seeds/20_links.sql):
 * a real click through the redirect function shows up in the chart and total, and shared
 * analytics open for a guest.
 */

// Headless Chromium says "HeadlessChrome", which the click capture rightly counts as a robot.
test.use({ userAgent: DESKTOP_CHROME });

/** Pat's (paid@shortlane.test, Pro) seeded link pat-links.localhost/podcast. */
const PODCAST = {
  id: '00000000-0000-4000-8000-000000002109',
  domain: 'pat-links.localhost',
  alias: 'podcast',
  destination: 'https://podcast.example.com/episodes/42',
};

/**
 * The clicks-over-time table of the page as label → clicks (it opens the table view); empty when
 * the page says nobody opened the link in the period.
 */
async function clicksPerMinute(page: Page): Promise<Map<string, number>> {
  const overTime = page.getByRole('region', { name: 'Clicks over time' });
  const noClicks = page.getByRole('heading', { level: 2, name: 'No clicks yet' });
  await expect(overTime.or(noClicks)).toBeVisible();
  if (await noClicks.isVisible()) return new Map();
  await overTime.getByText('Table', { exact: true }).click();
  const rows = await overTime
    .getByRole('table')
    .locator('tbody tr')
    .evaluateAll((elements) =>
      elements.map((row) => [
        row.querySelector('th')?.textContent ?? '',
        row.querySelector('td')?.textContent ?? '',
      ]),
    );
  return new Map(rows.map(([label, clicks]) => [label!, Number(clicks)]));
}

/** How the page labels the minute of `time` (the browser's locale data and time zone). */
function minuteLabel(page: Page, time: Date): Promise<string> {
  return page.evaluate(
    (epoch) =>
      new Intl.DateTimeFormat('en', {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(epoch),
    time.getTime(),
  );
}

/** Olivia's (owner@, Business: public analytics) link olivia.shrt.localhost/book. */
const BOOK = {
  id: '00000000-0000-4000-8000-000000002302',
  name: 'olivia.shrt.localhost/book',
};

async function logInAs(page: Page, email: string): Promise<void> {
  await page.goto('/app/login');
  await logIn(page, email, DEMO_PASSWORD);
  await expect(page).not.toHaveURL(/\/app\/login/);
}

test.describe('link analytics', () => {
  test('a click on a seeded link shows up in the last hour', async ({ page, saveScreenshot }) => {
    test.slow();
    await logInAs(page, 'paid@shortlane.test');
    await page.goto(`/app/analytics/${PODCAST.id}`);
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: `Analytics for ${PODCAST.domain}/${PODCAST.alias}`,
      }),
    ).toBeVisible();
    await page.getByText('1h', { exact: true }).click();
    // The last hour's figures, or its empty state: the seed's clicks may all be older.
    await expect(
      page
        .getByText('the last hour', { exact: true })
        .or(page.getByText(/^Nobody has opened this link in the last hour\./)),
    ).toBeVisible();
    // The seed's clicks stop when it ran; the minute of this visit holds only what came since.
    const before = await clicksPerMinute(page);

    const visitedAt = new Date();
    const visit = await openShortLink(PODCAST.domain, PODCAST.alias);
    expect(visit.location).toBe(PODCAST.destination);
    const minute = await minuteLabel(page, visitedAt);
    const expected = (before.get(minute) ?? 0) + 1;

    // Clicks are written within about a second of the redirect; the page reads them fresh.
    await expect
      .poll(
        async () => {
          await page.reload();
          await expect(page.getByRole('radio', { name: '1h' })).toBeChecked();
          return (await clicksPerMinute(page)).get(minute);
        },
        { timeout: 20_000 },
      )
      .toBe(expected);
    // The total counts it too: at least this click, in figures and in the chart's summary.
    const total = page
      .getByRole('heading', { level: 2, name: 'Clicks', exact: true })
      .locator('xpath=following-sibling::*[1]');
    expect(Number((await total.innerText()).replace(/[^\d]/g, ''))).toBeGreaterThanOrEqual(1);
    const overTime = page.getByRole('region', { name: 'Clicks over time' });
    await overTime.getByText('Chart', { exact: true }).click();
    await expect(
      overTime.getByRole('img', { name: /^Clicks over time: [\d,]+ clicks? from/ }),
    ).toBeAttached();
    await expect(overTime.locator('svg[data-chart="clicks"]')).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Browsers' }).getByRole('rowheader', { name: 'Chrome' }),
    ).toBeVisible();
    await saveScreenshot('links-analytics-last-hour');
  });

  test('shared analytics open for a guest until sharing stops', async ({ page, browser }) => {
    test.slow();
    await logInAs(page, 'owner@shortlane.test');
    await page.goto(`/app/analytics/${BOOK.id}`);
    const panel = page.getByRole('region', { name: 'Public analytics' });
    const toggle = panel.getByRole('switch', { name: /Anyone with the link/ });
    await expect(toggle).not.toBeChecked();
    await toggle.click({ force: true });
    const address = panel.getByLabel('Public address');
    await expect(address).toHaveValue(/\/app\/analytics\/[A-Za-z0-9_-]{24}$/);
    const publicUrl = await address.inputValue();

    const guest = await browser.newContext({ userAgent: DESKTOP_CHROME });
    try {
      const guestPage = await guest.newPage();
      await guestPage.goto(publicUrl);
      await expect(
        guestPage.getByRole('heading', { level: 1, name: `Analytics for ${BOOK.name}` }),
      ).toBeVisible();
      await expect(guestPage.getByText(/Shared analytics/)).toBeVisible();
      await expect(guestPage.getByRole('switch')).toHaveCount(0);

      await toggle.click({ force: true });
      await expect(panel.getByText(/Only people who can read this link/)).toBeVisible();
      await guestPage.reload();
      await expect(
        guestPage.getByRole('heading', { level: 1, name: 'Analytics not found' }),
      ).toBeVisible();
    } finally {
      await guest.close();
    }
  });

  test('a plan with download_logs downloads the click log as CSV', async ({ page }) => {
    test.slow();
    await logInAs(page, 'owner@shortlane.test');
    await page.goto(`/app/analytics/${BOOK.id}`);
    await page.getByText('30d', { exact: true }).click();
    await expect(page.getByText('the last 30 days', { exact: true })).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download click log (CSV)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('clicks-olivia.shrt.localhost-book-last_30_day.csv');
    const path = await download.path();
    const lines = (await fs.readFile(path, 'utf8')).split('\r\n');
    expect(lines[0]).toBe('time,domain,alias,country,device,browser,os,referrer,bot,qr,visitor');
    // The seed gave every live link clicks over the last 30 days.
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,olivia\.shrt\.localhost,book,/);
  });
});
