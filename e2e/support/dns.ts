import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { stackEnv } from './stack.ts';

/** Sets one record in the local DNS sandbox, as the service role. */
export async function setDnsRecord(zone: string, name: string, type: string, value: string) {
  const env = stackEnv();
  const response = await fetch(`${env.DNS_SANDBOX_API}/zones/${zone}/records`, {
    method: 'PUT',
    headers: {
      Authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
      apikey: env.SUPABASE_SERVICE_ROLE_KEY,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name, type, value }),
  });
  expect(response.status).toBe(200);
}

/**
 * On a domain's verify page: sets the records it shows in the DNS sandbox (what the customer
 * would do at their DNS provider), asks for a check and waits for the domain to pass.
 */
export async function verifyShownRecords(page: Page, domain: string) {
  const ownership = page.getByRole('table', { name: 'Ownership' });
  const txt = ownership.getByRole('row').nth(1);
  await expect(txt).toBeVisible({ timeout: 30_000 });
  const [txtName, txtValue] = await Promise.all([
    txt.getByRole('cell').nth(1).locator('code').innerText(),
    txt.getByRole('cell').nth(2).locator('code').innerText(),
  ]);
  const cnameTarget = await page
    .getByRole('table', { name: 'Host: a CNAME' })
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .nth(2)
    .locator('code')
    .innerText();
  expect(txtName).toBe(`_shortlane-verification.${domain}`);

  await setDnsRecord(domain, txtName, 'TXT', txtValue);
  await setDnsRecord(domain, '@', 'CNAME', cnameTarget);
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByText('Verified', { exact: true }).first()).toBeVisible({
    timeout: 30_000,
  });
}
