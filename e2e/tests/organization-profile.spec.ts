import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { logIn, seriousAccessibilityViolations, serviceClient } from '../support/shell.ts';
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
  // Scanned once the modal has faded in: mid-transition, axe reads its buttons' colours blended
  // with the page behind them.
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await seriousAccessibilityViolations(page, 'restore-organization modal')).toEqual([]);
  await dialog.getByRole('button', { name: 'Restore organization' }).click();
  await expect(page.getByText('The organization has been restored.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Archive' })).toBeVisible();
});

test('a user whose plan allows teams creates an organization and walks its first steps', async ({
  page,
  factories,
}) => {
  const owner = await makeStaff(await factories.createConfirmedUser());
  const admin = serviceClient();
  const profile = await admin
    .from('profiles')
    .select('personal_account_id')
    .eq('id', owner.id)
    .single();
  if (profile.error) throw new Error(profile.error.message);
  const granted = await admin
    .from('accounts')
    .update({ features: ['create_tiny_url', 'support_teams'] })
    .eq('id', profile.data.personal_account_id);
  if (granted.error) throw new Error(granted.error.message);
  const slug = `e2e-new-${randomUUID().slice(0, 8)}`;

  await page.goto('/app/login');
  await logIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/app/organizations/onboarding');
  const form = page.getByRole('region', { name: 'Create an organization' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Contoso');
  await form.getByRole('textbox', { name: /^Slug/ }).fill(slug);
  await form.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(`/app/organizations/onboarding?org=${slug}`);

  const step = page.getByRole('region', { name: 'Add domains' });
  await expect(step.getByText('Step 1 of 5')).toBeVisible();
  expect(await seriousAccessibilityViolations(page, 'organization onboarding')).toEqual([]);
  await step.getByRole('button', { name: 'Skip this step' }).click();
  await page
    .getByRole('region', { name: 'Invite users' })
    .getByRole('button', { name: 'Skip this step' })
    .click();
  await expect(page.getByRole('region', { name: 'Create a team' })).toBeVisible();
  // The steps marked done stay done on the next visit.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Create a team' })).toBeVisible();
});
