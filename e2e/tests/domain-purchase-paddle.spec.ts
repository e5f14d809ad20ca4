import { randomUUID } from 'node:crypto';
import { preferPaddle } from '../support/paddle.ts';
import { expect, test } from '../support/fixtures.ts';
import { subscribeToBusiness } from '../support/plans.ts';
import { registrar } from '../support/registrar.ts';
import { logIn } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';

/**
 * Domain purchase through billing type 2 (issue 14 item 5): for an account whose provider is
 * Paddle, the cart's Checkout opens Paddle's overlay at /paddle/payment (flow domain-purchase)
 * with the first year discounted (Business' discounted_domain_count, a Paddle discount); paid
 * with 4242…, the sandbox's notification pays the order and the page lands on
 * shopping-cart.verify, which follows it until the name is registered.
 */
test('a Paddle customer buys a domain through the overlay', async ({ page, factories }) => {
  test.slow();
  const user = await factories.createConfirmedUser();
  await subscribeToBusiness(user);
  await preferPaddle(stackEnv(), user);
  const domain = `e2p${randomUUID().slice(0, 8)}.com`;

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).not.toHaveURL(/\/app\/login/);

  await page.goto('/app/purchase/domain');
  await page.getByRole('textbox', { name: 'Domain name' }).fill(domain.replace(/\.com$/, ''));
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: `Add ${domain} to the cart` }).click();
  // The name is in the cart once the navigation bar counts it; leaving before that would drop
  // the request that puts it there.
  await expect(page.getByRole('link', { name: 'Shopping cart, 1 item' }).first()).toBeVisible();
  await page.goto('/app/shopping-cart');
  await expect(page.getByTestId('cart-total')).toHaveText('Total: $10.99');
  await page.getByRole('button', { name: 'Checkout' }).click();

  await page.waitForURL(/\/paddle\/payment\?flow=domain-purchase&_ptxn=txn_[a-z0-9]{26}$/);
  const checkout = page.frameLocator('iframe[name="paddle_frame"]');
  await expect(checkout.getByRole('heading', { name: `Domains: ${domain}` })).toBeVisible();
  await expect(checkout.getByTestId('due-today')).toHaveText('$10.99');
  await checkout.getByLabel('ZIP/Postcode').fill('10001');
  await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
  await checkout.getByLabel('Name on card').fill('E2E Buyer');
  await checkout.getByLabel('Expiration date').fill('12/34');
  await checkout.getByLabel('Security code').fill('123');
  await checkout.getByRole('button', { name: 'Subscribe now' }).click();

  await page.waitForURL(/\/app\/shopping-cart\/success\?session_id=txn_[a-z0-9]{26}$/);
  await expect(page.getByTestId('order-status')).toHaveText('paid', { timeout: 60_000 });
  await expect(page.getByTestId('purchased-domain')).toContainText('registered and ready');
  expect((await registrar().domain(domain))?.domainName).toBe(domain);
});
