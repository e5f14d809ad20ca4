import type { Page } from '@playwright/test';
import { appUrls, expect, test } from '../support/fixtures.ts';
import type { TestUser } from '../support/factories.ts';
import { subscribeToPro } from '../support/plans.ts';
import { logIn, seriousAccessibilityViolations, signedInClient } from '../support/shell.ts';
import { stackEnv } from '../support/stack.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * API tokens end to end: a Pro user creates a token in settings/api, copies it, calls the public
 * API with it from here, sees "last used" change on the list, tries it on /app/dev, and revokes
 * it (the next call is refused with 401). Staff see a user's token in the kiosk (never its
 * secret) and revoke it there.
 */

/** One call of the public API with a token, as any program would make it. */
function callApi(token: string, path = '/v1/domains'): Promise<Response> {
  return fetch(`${stackEnv().SUPABASE_URL}/functions/v1/api${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

async function logInAsProUser(page: Page, user: TestUser) {
  await subscribeToPro(user);
  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app');
}

test('create, copy, use, see last used, try it on /app/dev, revoke', async ({
  page,
  context,
  factories,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: appUrls.portal,
  });
  const user = await factories.createConfirmedUser();
  await logInAsProUser(page, user);

  await page.goto('/app/settings/api');
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();
  await expect(page.getByText('No API tokens yet.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'New API token' }).click();

  await expect(page).toHaveURL('/app/settings/api/new');
  await page.getByRole('textbox', { name: 'Name' }).fill('E2E script');
  await page.getByRole('checkbox', { name: /Domains: read/ }).check();
  await page.getByRole('button', { name: 'Create token' }).click();

  // The secret, once, with the warning; focus moved to what replaced the form.
  const heading = page.getByRole('heading', { level: 1, name: 'Your new API token' });
  await expect(heading).toBeFocused();
  await expect(page.getByText('Copy it now: you won’t see it again')).toBeVisible();
  await page.getByRole('button', { name: 'Copy API token' }).click();
  await expect(page.getByText('Copied to clipboard.')).toBeVisible();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^slt_[0-9a-f]{48}$/);
  await expect(page.getByLabel('API token', { exact: true })).toHaveText(token);
  expect(await seriousAccessibilityViolations(page, 'new API token')).toEqual([]);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL('/app/settings/api');
  const row = page.getByRole('row', { name: /E2E script/ });
  await expect(row.getByText(token.slice(0, 10) + '…')).toBeVisible();
  await expect(row.getByText('Links: read')).toBeVisible();
  await expect(row.getByText('Domains: read')).toBeVisible();
  // Last used and Expires: never, before any call.
  await expect(row.getByRole('cell', { name: 'Never', exact: true })).toHaveCount(2);
  expect(await seriousAccessibilityViolations(page, 'API tokens list')).toEqual([]);

  const answer = await callApi(token);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-ratelimit-limit')).not.toBeNull();

  await page.reload();
  const used = page.getByRole('row', { name: /E2E script/ });
  await expect(used.getByRole('cell', { name: 'Never', exact: true })).toHaveCount(1);
  await expect(used.locator('time')).toHaveCount(2);

  // /app/dev: the reference renders through Swagger UI, and its own "Try it out" calls the API
  // with this token, from the browser (the API answers CORS and exposes its rate-limit headers).
  await page.goto('/app/dev');
  // The dev server builds the viewer's chunk on first visit: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Shortlane API' })).toBeVisible({
    timeout: 60_000,
  });
  const domains = page.locator('#operations-default-listDomains');
  await expect(domains).toBeVisible({ timeout: 60_000 });
  expect(await seriousAccessibilityViolations(page, 'API reference')).toEqual([]);

  // Authorize starts empty: the reader pastes their own token. The viewer is reached with the
  // keyboard, right after the link to create a token.
  await page.getByRole('link', { name: 'Settings → API' }).focus();
  await page.keyboard.press('Tab');
  const authorize = page.getByRole('button', { name: 'Authorize', exact: true });
  await expect(authorize).toBeFocused();
  await page.keyboard.press('Enter');
  const authorization = page.locator('.dialog-ux');
  const tokenField = authorization.getByRole('textbox');
  await expect(tokenField).toHaveValue('');
  await tokenField.fill(token);
  await authorization.getByRole('button', { name: 'Apply credentials' }).click();
  await authorization.getByRole('button', { name: 'Close', exact: true }).click();

  // One call entirely from the keyboard.
  await domains.getByRole('button', { name: /^GET \/v1\/domains / }).press('Enter');
  await domains.getByRole('button', { name: 'Try it out' }).press('Enter');
  await domains.getByRole('button', { name: 'Execute' }).press('Enter');
  const domainsAnswer = domains.locator('.live-responses-table');
  await expect(domainsAnswer.locator('tr.response .response-col_status')).toHaveText('200');
  await expect(domainsAnswer).toContainText('x-ratelimit-remaining');

  const create = page.locator('#operations-default-createLink');
  await create.getByRole('button', { name: /^POST \/v1\/links / }).click();
  await create.getByRole('button', { name: 'Try it out' }).click();
  await create
    .locator('tr[data-param-name="Idempotency-Key"]')
    .getByRole('textbox')
    .fill(`e2e-${user.id}`);
  await create.getByRole('button', { name: 'Execute' }).click();
  // The token lacks links:write: the API's own refusal comes back, readable by the page.
  const createAnswer = create.locator('.live-responses-table');
  await expect(createAnswer.locator('tr.response .response-col_status')).toHaveText('403');
  await expect(createAnswer).toContainText('ability_missing');

  // Revoke, with a confirmation; the next call is refused.
  await page.goto('/app/settings/api');
  await page.getByRole('button', { name: 'Revoke E2E script' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke API token' });
  await expect(dialog.getByText('cannot be undone', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No API tokens yet.', { exact: false })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeFocused();
  expect((await callApi(token)).status).toBe(401);
});

test('staff see a user’s token in the kiosk, never its secret, and revoke it', async ({
  page,
  factories,
}) => {
  test.setTimeout(120_000);
  const user = await factories.createConfirmedUser();
  await subscribeToPro(user);
  // Minted as the portal does, right after a password sign-in.
  const client = await signedInClient(user);
  const { data, error } = await client.rpc('create_api_token', {
    p_name: 'Leaked key',
    p_abilities: ['links:read'],
  });
  if (error) throw new Error(error.message);
  const { token } = data as { token: string };
  expect((await callApi(token, '/v1/links')).status).toBe(200);

  await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
  await page.goto(`${appUrls.kiosk}/user/${user.id}`);
  await page.getByRole('tab', { name: 'API tokens' }).click();
  const row = page.getByRole('row', { name: /Leaked key/ });
  await expect(row.getByText(token.slice(0, 10))).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);

  await page.getByRole('menuitem', { name: 'API tokens' }).click();
  await page.getByPlaceholder('Name, token or account').fill(token.slice(0, 10));
  const listed = page.getByRole('row', { name: /Leaked key/ });
  await expect(listed.getByText(user.email)).toBeVisible();
  await listed.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('API token revoked: Leaked key')).toBeVisible();
  await expect(page.getByRole('row', { name: /Leaked key/ })).toHaveCount(0);
  expect((await callApi(token, '/v1/links')).status).toBe(401);
});
