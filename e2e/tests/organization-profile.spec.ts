import { expect, test } from '../support/fixtures.ts';
import { logIn, seriousAccessibilityViolations } from '../support/shell.ts';
import { makeStaff } from './kiosk-support.ts';

/**
 * An organization's owner (app-shell "Organization", link-creation "Organization and team"):
 * the organization's root lands them on its dashboard; they rename it, archive it, and restore
 * it through the restore-organization modal.
 */
test('an owner lands, renames, archives and restores their organization', async ({
  page,
  factories,
}) => {
  // Organization pages are behind the developer flag for now (the rollout switch).
  const owner = await makeStaff(await factories.createConfirmedUser());
  const organization = await factories.createOrganization(owner, 'Northwind');
  await page.goto('/app/login');
  await logIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  await page.goto(`/app/organizations/${organization.slug}`);
  await expect(page).toHaveURL(`/app/organizations/${organization.slug}/dashboard`);

  await page.goto(`/app/organizations/${organization.slug}/settings/profile`);
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.getByRole('textbox', { name: 'Name' })).toHaveValue('Northwind');
  expect(await seriousAccessibilityViolations(page, 'organization profile')).toEqual([]);
  await profile.getByRole('textbox', { name: 'Name' }).fill('Northwind Traders');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The organization has been saved.')).toBeVisible();

  const archive = page.getByRole('region', { name: 'Archive' });
  await archive.getByRole('button', { name: 'Archive organization' }).click();
  await archive.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page.getByText('The organization has been archived.')).toBeVisible();

  await page.getByRole('button', { name: 'Restore organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore Northwind Traders?' });
  await expect(dialog.getByText('1 admin', { exact: true })).toBeVisible();
  await expect(dialog.getByText('0 links')).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'restore-organization modal')).toEqual([]);
  await dialog.getByRole('button', { name: 'Restore organization' }).click();
  await expect(page.getByText('The organization has been restored.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Archive' })).toBeVisible();
});
