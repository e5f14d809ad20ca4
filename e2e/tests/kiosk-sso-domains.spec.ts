import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { serviceClient } from '../support/shell.ts';
import { makeStaff, openKioskAsStaff } from './kiosk-support.ts';

/**
 * Issue 18: a claimed single sign-on domain is proved by DNS or, when the customer cannot
 * publish the record, by staff in the kiosk: the organization's page lists its claimed domains
 * and verifies a pending one.
 */
test('staff verify an organization’s claimed single sign-on domain from its kiosk page', async ({
  page,
  factories,
}) => {
  test.slow();
  const owner = await factories.createConfirmedUser();
  const organization = await factories.createOrganization(owner, 'Initech');
  const domain = `sso-${randomUUID().slice(0, 8)}.example`;
  const admin = serviceClient();
  const claimed = await admin
    .from('organization_sso_domains')
    .insert({ organization_id: organization.id, domain })
    .select('id')
    .single();
  expect(claimed.error).toBeNull();

  await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
  await page.goto(`${appUrls.kiosk}/organizations/${organization.id}/show`);
  const row = page.getByRole('row').filter({ hasText: domain });
  await expect(row).toContainText('pending');
  await row.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Domain verified for single sign-on')).toBeVisible();
  await expect(row).toContainText('verified');
  await expect(row).toContainText('staff');
  await expect(row.getByRole('button', { name: 'Verify' })).toHaveCount(0);

  const stored = await admin
    .from('organization_sso_domains')
    .select('status, verified_by')
    .eq('id', claimed.data!.id)
    .single();
  expect(stored.data).toEqual({ status: 'verified', verified_by: 'staff' });
});
