import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import {
  BREAKPOINT_WIDTHS,
  logIn,
  seriousAccessibilityViolations,
  serviceClient,
} from '../support/shell.ts';

/** Olivia's seeded link olivia.shrt.localhost/talk, shared under a fixed token (Business plan). */
async function sharedAnalyticsPath(): Promise<string> {
  const aliasId = '00000000-0000-4000-8000-000000002301';
  const token = 'shell-screens-analytics0';
  const admin = serviceClient();
  const { data: link, error: readError } = await admin
    .from('aliases')
    .select('account_id')
    .eq('id', aliasId)
    .single();
  if (readError) throw new Error(`Could not read the seeded link: ${readError.message}`);
  const { error } = await admin
    .from('analytics_shares')
    .upsert({ alias_id: aliasId, account_id: link.account_id, token }, { onConflict: 'alias_id' });
  if (error) throw new Error(`Could not share the seeded link's analytics: ${error.message}`);
  return `/app/analytics/${token}`;
}

/**
 * The main screens at the spec's four breakpoints: a full-page screenshot of each in
 * e2e/artifacts/, and no axe-core finding of serious or critical impact.
 */
for (const width of BREAKPOINT_WIDTHS) {
  test(`main screens at ${width} px`, async ({ page, factories, saveScreenshot }) => {
    // A walk through a dozen screens, each shot full-page and scanned by axe: on a loaded 2-core
    // machine that alone comes near the default 60 s.
    test.slow();
    const user = await factories.createConfirmedUser({ userMetadata: { name: 'Ada Lovelace' } });
    await page.setViewportSize({ width, height: 900 });

    const check = async (name: string, ready: (page: Page) => Promise<void>) => {
      await ready(page);
      await saveScreenshot(`shell-${name}-${width}`);
      expect(await seriousAccessibilityViolations(page, `${name} at ${width} px`)).toEqual([]);
    };

    await page.goto('/app');
    await check('home', async (p) => {
      await expect(
        p.getByRole('heading', { level: 1, name: 'Shorten, brand and track your links' }),
      ).toBeVisible();
      // The create form loads on first use: shoot and check it once it is there.
      await expect(p.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
    });

    await page.goto('/app/pricing');
    await check('pricing', (p) => expect(p.getByRole('article').first()).toBeVisible());

    await page.goto('/app/register');
    await check('register', (p) =>
      expect(p.getByRole('heading', { level: 1, name: 'Sign up' })).toBeVisible(),
    );

    await page.goto('/app/password/reset');
    await check('password-reset', (p) =>
      expect(p.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible(),
    );

    await page.goto('/app/my-urls');
    await check('my-urls', (p) =>
      expect(p.getByText('No short links made in this browser yet.')).toBeVisible(),
    );

    await page.goto('/app/login');
    await check('login', (p) =>
      expect(p.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible(),
    );

    await logIn(page, user.email, user.password);
    await check('landing', async (p) => {
      await expect(
        p.getByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' }),
      ).toBeVisible();
      // As on the home page: the create form loads on first use; check the page once it is there,
      // not while its parts are still arriving (axe once read a colour mid-way).
      await expect(p.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
    });

    await page.goto('/app/dashboard');
    await check('dashboard', (p) => expect(p.getByText('No active links yet.')).toBeVisible());

    // The seeded announcements are there for every user.
    await page.goto('/app/notifications');
    await check('notifications', (p) =>
      expect(p.getByRole('listitem', { name: /Branded domains/ })).toBeVisible(),
    );
    if (width >= 992) {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /^Notifications/ })
        .click();
      await check('notifications-bell', (p) =>
        expect(p.getByRole('dialog', { name: 'Notifications' })).toBeVisible(),
      );
      await page.keyboard.press('Escape');
    }

    await page.goto('/app/settings/profile');
    await check('settings-profile', async (p) => {
      await expect(p.getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
      await expect(p.getByText(`Current address: ${user.email}`)).toBeVisible();
      await expect(p.getByRole('navigation', { name: 'Billing settings' })).toBeVisible();
    });

    await page.goto('/app/settings/profile/delete');
    await check('settings-delete-account', (p) =>
      expect(p.getByRole('button', { name: 'Delete my account' })).toBeVisible(),
    );

    await page.goto('/app/settings/security');
    await check('security', (p) =>
      expect(p.getByRole('button', { name: 'Turn on two-factor authentication' })).toBeVisible(),
    );

    await page.goto(await sharedAnalyticsPath());
    await check('analytics', async (p) => {
      await expect(
        p.getByRole('region', { name: 'Countries' }).getByRole('row').nth(1),
      ).toBeVisible();
      await expect(p.locator('svg[data-chart="clicks"]')).toBeVisible();
    });

    // The mobile menu below the lg breakpoint, the desktop bar from it.
    if (width < 992) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      // The menu's content loads on first use: its frame (a loading drawer) opens first and is
      // then replaced; check the menu once the loaded one is there, not mid-swap.
      await check('mobile-menu', async (p) => {
        const menu = p.getByRole('dialog', { name: 'Menu' });
        await expect(menu.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
        await expect(p.getByRole('dialog')).toHaveCount(1);
        await expect(menu.locator('[data-loading-frame]')).toHaveCount(0);
      });
    } else {
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    }
  });
}
