import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn, serviceClient } from '../support/shell.ts';

test.describe('portal shell: guards and redirects', () => {
  test('a guest opening a protected page logs in and comes back to it, query included', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/settings/security?tab=password');
    await expect(page).toHaveURL('/app/login?to=%2Fapp%2Fsettings%2Fsecurity%3Ftab%3Dpassword');

    await logIn(page, user.email, user.password);

    await expect(page).toHaveURL('/app/settings/security?tab=password');
    await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
  });

  test('a signed-in user opening a guest page goes to the homepage', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser({ userMetadata: { name: 'Grace Hopper' } });
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Welcome, Grace Hopper' }),
    ).toBeVisible();

    await page.goto('/app/register');
    await expect(page).toHaveURL('/app');
    await page.goto('/app/my-urls');
    await expect(page).toHaveURL('/app');
  });

  for (const [from, to, heading] of [
    ['/app/features/branded', '/app/features/branded-domains', 'Branded domains'],
    ['/app/features/custom-domains', '/app/features/branded-domains', 'Branded domains'],
    ['/app/features/analytics', '/app/features/link-analytics', 'Link analytics'],
    ['/app/features/howit', '/app/features/how-it-works', 'How it works'],
    ['/app/features/aboutus', '/app/features/about-us', 'About us'],
    ['/app/features', '/app/pricing', 'Plans and pricing'],
    ['/app/signup', '/app/pricing', 'Plans and pricing'],
    ['/app/myurls', '/app/my-urls', 'My URLs'],
    ['/app/analytics/download', '/app', 'Shorten, brand and track your links'],
    ['/app/no-such-page', '/app', 'Shorten, brand and track your links'],
    ['/elsewhere', '/app', 'Shorten, brand and track your links'],
  ] as const) {
    test(`${from} leads to ${to}`, async ({ page }) => {
      await page.goto(from);
      await expect(page).toHaveURL(to);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    });
  }

  test('the blog is an external redirect', async ({ page }) => {
    // No internet here: the blog's answer is played by the test.
    await page.route('https://blog.shortlane.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Blog</title><h1>The blog</h1>' }),
    );
    await page.goto('/app/blog');
    await expect(page).toHaveURL('https://blog.shortlane.example/');
    await expect(page.getByRole('heading', { name: 'The blog' })).toBeVisible();
  });

  test('a coupon in the address is remembered; an unknown one is forgotten', async ({ page }) => {
    const admin = serviceClient();
    const code = `E2E${randomUUID().slice(0, 8).toUpperCase()}`;
    const { error } = await admin
      .from('coupons')
      .insert({ code, percent_off: 25, intervals: ['yearly'] });
    expect(error).toBeNull();
    try {
      await page.goto(`/app/features/about-us?coupon=${code}`);
      await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
      await expect.poll(() => page.evaluate(() => localStorage.getItem('coupon'))).toBe(code);

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Plans' })
        .click();
      await expect(page).toHaveURL('/app/pricing');
      await expect(
        page.getByText(`Coupon ${code}: 25% off yearly plans, applied at checkout.`),
      ).toBeVisible();

      await page.goto('/app/pricing?coupon=NO-SUCH-COUPON');
      await expect.poll(() => page.evaluate(() => localStorage.getItem('coupon'))).toBeNull();
      await expect(page.getByText(/^Coupon /)).toHaveCount(0);
    } finally {
      await admin.from('coupons').delete().eq('code', code);
    }
  });
});

test.describe('portal shell: who sees what', () => {
  test('a past-due trial user is held on the past-due page with only log out', async ({ page }) => {
    await page.goto('/app/login');
    await logIn(page, 'pastdue@shortlane.test', DEMO_PASSWORD);
    await expect(page).toHaveURL('/app/subscribe');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Your payment is past due' }),
    ).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(nav.getByRole('link')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Shortlane home' })).toHaveAttribute(
      'href',
      '/app/subscribe',
    );

    // Pricing and the legal pages stay open; the rest leads back.
    await page.goto('/app/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Plans and pricing' })).toBeVisible();
    await page.goto('/app/settings/profile');
    await expect(page).toHaveURL('/app/subscribe');

    await nav.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/app');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Shorten, brand and track your links' }),
    ).toBeVisible();
  });

  test('a subscriber goes to the dashboard and sees no Plans, Blog or Features', async ({
    page,
  }) => {
    await page.goto('/app/login');
    await logIn(page, 'paid@shortlane.test', DEMO_PASSWORD);
    await expect(page).toHaveURL('/app/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Plans' })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Features' })).toHaveCount(0);
  });

  test('staff see the kiosk link and their organizations', async ({ page }) => {
    await page.goto('/app/login');
    await logIn(page, 'staff@shortlane.test', DEMO_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Kiosk' })).toHaveAttribute('href', '/app/kiosk');
    await nav.getByRole('button', { name: 'Organizations' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    // The portal's kiosk routes lead to the same screen in the kiosk app, which asks its own
    // sign-in first (the two apps keep separate sessions).
    await page.goto('/app/kiosk');
    await page.waitForURL((url) => url.origin === new URL(appUrls.kiosk).origin);
    expect(new URL(page.url()).pathname).toMatch(/^\/(users|login)$/);
  });

  test('a user who belongs to no organization cannot open organization pages', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log out' }),
    ).toBeVisible();
    await page.goto('/app/organizations/acme/audit');
    await expect(page).toHaveURL('/app');
  });
});
