import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../support/fixtures.ts';
import { subscribeAccountToEnterprise, subscribeToEnterprise } from '../support/plans.ts';
import { logIn } from '../support/shell.ts';

/**
 * settings/webhooks: an Enterprise user adds an endpoint (a receiver on loopback, which the
 * local stack's development setting allows), sends a test event, and sees it delivered in the
 * log; an organization owner picks the organization and adds one there; a user without the
 * plan sees the upsell.
 */
test.describe('settings/webhooks', () => {
  let receiver: http.Server;
  let base = '';
  const received: { path: string; headers: http.IncomingHttpHeaders }[] = [];

  test.beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      received.push({ path: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => {
        res.writeHead(204);
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  test.afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('an Enterprise user adds an endpoint, sends a test event and sees it in the log', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await subscribeToEnterprise(user);
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');

    await page.goto('/app/settings/webhooks');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();
    await expect(page.getByText('No deliveries yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    const path = `/hooks/${user.id}`;
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${base}${path}`);
    await dialog.getByRole('checkbox', { name: /link\.clicked/ }).check();
    await dialog.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(dialog).toBeHidden();

    const card = page.getByRole('article', { name: `Endpoint ${base}${path}` });
    await expect(card).toBeVisible();
    await expect(card.getByRole('switch', { name: 'Enabled' })).toBeChecked();
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('status')).toContainText('Test event queued');

    const log = page.getByRole('table', { name: 'Delivery log' });
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(row.getByText('succeeded')).toBeVisible({ timeout: 15_000 });
    await expect(row.getByRole('cell', { name: '204', exact: true })).toBeVisible();
    await expect(row.getByText(/^\d+ ms$/)).toBeVisible();

    const delivered = received.find((each) => each.path === path);
    expect(delivered?.headers['webhook-signature']).toMatch(/^v1,/);
  });

  test('an organization owner picks the organization and adds an endpoint there', async ({
    page,
    factories,
  }) => {
    const owner = await factories.createConfirmedUser();
    // Their personal workspace has webhooks too, so the page offers a choice.
    await subscribeToEnterprise(owner);
    const organization = await factories.createOrganization(owner);
    await subscribeAccountToEnterprise(organization.accountId);
    await page.goto('/app/login');
    await logIn(page, owner.email, owner.password);
    await expect(page).toHaveURL('/app');

    await page.goto('/app/settings/webhooks');
    const picker = page.getByRole('combobox', { name: 'Account' });
    await expect(picker).toHaveValue('Personal workspace');
    await picker.click();
    await page.getByRole('option', { name: `${organization.name} (organization)` }).click();
    await expect(page).toHaveURL(`/app/settings/webhooks?account=${organization.accountId}`);
    await expect(page.getByText('No endpoints yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    const url = `${base}/hooks/${organization.slug}`;
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await dialog.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('article', { name: `Endpoint ${url}` })).toBeVisible();

    // The scope is in the URL: a reload stays on the organization, whose endpoint it is.
    await page.reload();
    await expect(picker).toHaveValue(`${organization.name} (organization)`);
    await expect(page.getByRole('article', { name: `Endpoint ${url}` })).toBeVisible();
    await picker.click();
    await page.getByRole('option', { name: 'Personal workspace' }).click();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();
  });

  test('without the plan feature the page offers the upgrade', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    await expect(page).toHaveURL('/app');
    await page.goto('/app/settings/webhooks');
    await expect(page.getByText('Webhooks are part of the Enterprise plan')).toBeVisible();
    await expect(page.getByRole('link', { name: 'See plans' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
  });
});
