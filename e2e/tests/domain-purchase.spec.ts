import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { mainShortUrl, shorten } from '../support/create-form.ts';
import { subscribeToBusiness } from '../support/plans.ts';
import { registrar } from '../support/registrar.ts';
import { logIn } from '../support/shell.ts';
import { openShortUrl } from '../support/short-links.ts';

/**
 * Domain purchase (issue 14 item 5): a Business user searches a name, puts it in the cart, pays in the
 * Stripe sandbox's checkout, follows the order until it is paid and the name registered (at the
 * registrar sandbox, with its zone in the DNS sandbox, verified without touching DNS), and
 * shortens a link on it at once.
 */
test('a user buys a domain and shortens a link on it', async ({ page, factories }) => {
  test.slow();
  const user = await factories.createConfirmedUser();
  await subscribeToBusiness(user);
  const label = `e2e${randomUUID().slice(0, 8)}`;
  const domain = `${label}.com`;
  await registrar().markTaken(`${label}.net`);

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).not.toHaveURL(/\/app\/login/);

  await page.goto('/app/purchase/domain');
  await page.getByRole('textbox', { name: 'Domain name' }).fill(label);
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('table', { name: 'Search results' });
  const row = (name: string) => results.getByRole('row').filter({ hasText: name });
  await expect(row(domain)).toContainText('available');
  await expect(row(`${label}.net`)).toContainText('taken');
  // Business's discounted_domain_count: the first name is sold at cost for its first year.
  await expect(row(domain)).toContainText('$10.99 the first year, then $12.99');
  await page.getByRole('button', { name: `Add ${domain} to the cart` }).click();
  await expect(row(domain)).toContainText('in cart');
  await expect(page.getByRole('link', { name: 'Shopping cart, 1 item' }).first()).toBeVisible();

  await page.getByRole('link', { name: 'Go to the cart (1)' }).click();
  await expect(page).toHaveURL('/app/purchase/domain/cart');
  const cart = page.getByRole('table', { name: 'Cart' });
  await expect(cart.getByRole('row').filter({ hasText: domain })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $10.99');
  await page.getByRole('button', { name: 'Checkout' }).click();

  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('E2E Buyer');
  await page.getByRole('button', { name: /Subscribe|Pay/ }).click();

  await page.waitForURL(/\/app\/shopping-cart\/success\?session_id=cs_test_/);
  await expect(page.getByTestId('order-status')).toHaveText('paid', { timeout: 60_000 });
  await expect(page.getByTestId('purchased-domain')).toContainText('registered and ready');
  expect((await registrar().domain(domain))?.domainName).toBe(domain);

  await page.goto('/app/shopping-cart');
  await expect(page.getByText('Nothing to checkout, the cart is empty')).toBeVisible();

  // A link on the bought domain, from the navigation's create panel.
  await page.getByRole('button', { name: 'Create Short Link' }).first().click();
  const panel = page.getByRole('dialog', { name: 'Create Short Link' });
  await expect(panel.getByLabel('Long URL')).toBeVisible({ timeout: 60_000 });
  const longUrl = `https://example.com/e2e/bought/${randomUUID().slice(0, 8)}`;
  await panel.getByLabel('Long URL').fill(longUrl);
  await panel.getByRole('combobox', { name: 'Domain' }).click();
  await page.getByRole('option', { name: new RegExp(`^${domain.replace(/\./g, '\\.')}`) }).click();
  await shorten(page);
  const result = page.getByRole('region', { name: 'Your short link is ready' });
  // The credit confirmation may open once the costs have loaded, after shorten() looked.
  const credits = page.getByRole('dialog', { name: 'Use credits' });
  await expect(async () => {
    if (await credits.isVisible()) await credits.getByRole('button', { name: 'Continue' }).click();
    await expect(result).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const shortUrl = await mainShortUrl(result);
  expect(new URL(shortUrl).hostname).toBe(domain);
  const visit = await openShortUrl(shortUrl);
  expect([301, 302]).toContain(visit.status);
  expect(visit.location).toBe(longUrl);
});

/**
 * A paid name the registrar refuses: the success page follows the order until its refund is
 * done and says so, with the registrar's reason.
 */
test('a name the registrar refuses after payment is refunded', async ({ page, factories }) => {
  test.slow();
  const user = await factories.createConfirmedUser();
  const domain = `e2e${randomUUID().slice(0, 8)}.com`;
  await registrar().failNext({ operation: 'register', domainName: domain, error: 'unavailable' });

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).not.toHaveURL(/\/app\/login/);
  await page.goto('/app/purchase/domain');
  await page.getByRole('textbox', { name: 'Domain name' }).fill(domain);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: `Add ${domain} to the cart` }).click();
  await page.getByRole('link', { name: 'Go to the cart (1)' }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();

  await page.waitForURL(/\/sandbox\/stripe\/c\/pay\/cs_test_/);
  await page.getByLabel('Card number').fill('4242424242424242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Cardholder name').fill('E2E Buyer');
  await page.getByRole('button', { name: /Subscribe|Pay/ }).click();

  await page.waitForURL(/\/app\/shopping-cart\/success\?session_id=cs_test_/);
  await expect(page.getByTestId('order-status')).toHaveText('refunded', { timeout: 60_000 });
  const name = page.getByTestId('purchased-domain');
  await expect(name).toContainText('refunded');
  await expect(name).toContainText('the name is not available');
  expect(await registrar().domain(domain)).toBeNull();
});
