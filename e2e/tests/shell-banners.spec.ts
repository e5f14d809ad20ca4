import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { logIn } from '../support/shell.ts';

/**
 * The banners give the page room: the cookie notice never covers a control, and the survey
 * offer shows where links are made, and not again in the session after "Not now".
 */

type Box = { x: number; y: number; width: number; height: number };

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The focused element's box, as the viewport shows it (null when nothing is focused). */
const focusedBox = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height, name: element.outerHTML.slice(0, 80) };
  });

/** Tabs through the page; every focused control must lie clear of the notice. */
async function tabClearOf(page: Page, notice: Locator, presses: number) {
  let checked = 0;
  for (let press = 0; press < presses; press++) {
    await page.keyboard.press('Tab');
    const focused = await focusedBox(page);
    const box = await notice.boundingBox();
    if (!focused || !box) continue;
    if (focused.width === 0 || focused.height === 0) continue;
    // The notice's own controls are inside it, not under it.
    if (await notice.evaluate((el) => el.contains(document.activeElement))) continue;
    expect(intersects(focused, box), `${focused.name} is under the cookie notice`).toBe(false);
    checked++;
  }
  return checked;
}

for (const size of [
  { label: 'desktop', width: 1280, height: 720 },
  { label: 'mobile', width: 390, height: 640 },
]) {
  test(`the cookie notice never covers a focused control (${size.label})`, async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/app');
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    await expect(notice).toBeVisible();
    expect(await tabClearOf(page, notice, 40)).toBeGreaterThan(5);

    // Signed in, on the dashboard with its link tabs and search.
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    await page.goto('/app/dashboard');
    await expect(page).toHaveURL('/app/dashboard');
    await expect(page.getByRole('search')).toBeVisible();
    await expect(notice).toBeVisible();
    await saveScreenshot(`cookie-notice-dashboard-${size.label}`);
    expect(await tabClearOf(page, notice, 40)).toBeGreaterThan(5);
  });
}

// Tagged @survey: it sees the survey, which other specs start with skipped (support/fixtures.ts).
test('the survey offer shows where links are made, and not again this session after "Not now" @survey', async ({
  page,
  context,
  factories,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  const user = await factories.createConfirmedUser();
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app');
  // The survey itself opens first (onboarding.spec.ts); closed, the banner still offers it.
  await closeSurveyDialog(page);
  const banner = page.getByRole('complementary', { name: 'Survey' });
  await expect(banner).toContainText('Tell us about you');
  await saveScreenshot('survey-offer-home');

  // Not on pages about something else.
  await page.goto('/app/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(banner).toHaveCount(0);

  await page.goto('/app/dashboard');
  await closeSurveyDialog(page);
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Not now' }).click();
  await expect(banner).toHaveCount(0);

  // Gone for the session: other pages, a reload.
  await page.goto('/app');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' }).first()).toBeAttached();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(banner).toHaveCount(0);

  // A new browsing session (a new tab starts its own) offers it once more.
  const later = await context.newPage();
  await later.goto('/app');
  await expect(later.getByRole('complementary', { name: 'Survey' })).toBeVisible();
});

async function closeSurveyDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Tell us about you' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}
