import type { Locator, Page } from '@playwright/test';
import type { TestUser } from '../support/factories.ts';
import { appUrls, expect } from '../support/fixtures.ts';
import { serviceClient } from '../support/shell.ts';

/** Helpers the kiosk specs share: staff accounts and signing in to the kiosk. */

/** Gives a user the developer flag (staff), as an operator would. */
export async function makeStaff(user: TestUser): Promise<TestUser> {
  const { error } = await serviceClient()
    .from('profiles')
    .update({ is_developer: true })
    .eq('id', user.id);
  if (error) throw new Error(`Could not make ${user.email} staff: ${error.message}`);
  return user;
}

export async function signInToKiosk(page: Page, user: TestUser): Promise<void> {
  await page.goto(`${appUrls.kiosk}/login`);
  await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in to the kiosk as staff and waits for its home, the users list. */
export async function openKioskAsStaff(page: Page, staff: TestUser): Promise<void> {
  await signInToKiosk(page, staff);
  await expect(page).toHaveURL(`${appUrls.kiosk}/users`);
  await expect(page.getByRole('table')).toBeVisible();
}

export async function signInToPortal(page: Page, user: TestUser): Promise<void> {
  await page.goto(`${appUrls.portal}/app/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).not.toHaveURL(/\/app\/login/);
}

/**
 * Fills a react-admin form field once the form has settled: a form still initialising may reset
 * what was typed into it, so the value is typed again until it stays.
 */
export async function fillField(field: Locator, value: string, stored = value): Promise<void> {
  await expect(async () => {
    await field.fill(value);
    await expect(field).toHaveValue(stored, { timeout: 500 });
  }).toPass({ timeout: 10_000 });
}

/** Opens a kiosk resource's create page from its list, as staff would. */
export async function openCreatePage(page: Page, menuItem: string, resource: string) {
  await page.getByRole('menuitem', { name: menuItem }).click();
  await expect(page).toHaveURL(new RegExp(`/${resource}(\\?.*)?$`));
  // The Create button of this list (the previous page's may still be on screen for a moment).
  await page.locator(`a[href="/${resource}/create"]`).click();
  await expect(page).toHaveURL(`${appUrls.kiosk}/${resource}/create`);
}
