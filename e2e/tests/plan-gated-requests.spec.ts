import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn } from '../support/shell.ts';

/**
 * A screen asks only for what the viewer's plan allows: the free demo user's dashboard explains
 * that the plan has no analytics without a refused request behind it.
 */
test("a free user's dashboard sends no request the server refuses", async ({ page }) => {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401 || response.status() === 403) {
      refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });

  await page.goto('/app/login');
  await logIn(page, 'free@shortlane.test', DEMO_PASSWORD);
  await expect(page.getByLabel('Long URL')).toBeVisible();
  await page.goto('/app/dashboard');
  const clicks = page.getByRole('region', { name: 'Clicks' });
  await expect(clicks.getByText('Your plan does not include analytics.')).toBeVisible();
  await expect(clicks.getByRole('link', { name: 'See the plans' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Links' })).toBeVisible();
  // Let the list and the shell's own queries settle before judging.
  await page.waitForLoadState('networkidle');

  expect(refused).toEqual([]);
  expect(consoleErrors.filter((text) => /\b40[13]\b/.test(text))).toEqual([]);
});
