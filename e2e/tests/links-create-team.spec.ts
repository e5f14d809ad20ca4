import { openCreatePanel } from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn, seriousAccessibilityViolations } from '../support/shell.ts';

/**
 * The team choice (link-creation 5, 6): a team where the user is a viewer is offered, disabled,
 * as '(Viewer Access Only)'; a team where they are a member may be chosen.
 */

/** Marketing viewer, Sales member (supabase/seeds/10_accounts.sql). */
const VIEWER = 'viewer@shortlane.test';

test('a team viewer cannot pick that team', async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, VIEWER, DEMO_PASSWORD);
  await page.waitForURL(/\/app(\/dashboard)?$/);
  const form = await openCreatePanel(page);

  expect(await seriousAccessibilityViolations(page, 'create side panel')).toEqual([]);
  const team = form.getByRole('combobox', { name: 'Team' });
  await expect(team).toHaveValue('Personal');
  await team.click();
  const viewerOnly = page.getByRole('option', { name: 'Marketing (Viewer Access Only)' });
  await expect(viewerOnly).toBeVisible();
  await expect(viewerOnly).toHaveAttribute('data-combobox-disabled', 'true');
  await viewerOnly.click({ force: true });
  await expect(team).toHaveValue('Personal');

  await page.keyboard.press('Escape');
  await team.click();
  const sales = page.getByRole('option', { name: 'Sales', exact: true });
  await expect(sales).toBeVisible();
  await sales.click();
  await expect(team).toHaveValue('Sales');
});
