import { randomUUID } from 'node:crypto';
import { openCreatePanel } from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn, serviceClient } from '../support/shell.ts';

/**
 * Bulk creation from the Create side panel (link-creation 2, 4, 7): a CSV of 200 rows goes to
 * the bulk-import function, the form shows the batch and its size, the job creates the 200 links
 * and notifies its owner.
 */

/** Business plan personally (use_bulk), owner of Acme (supabase/seeds/10_accounts.sql). */
const BULK_USER = 'owner@shortlane.test';
const ROWS = 200;

async function waitFor<T>(what: string, read: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await read();
    if (value != null) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

test('a CSV of 200 rows creates 200 links and a notification', async ({ page }) => {
  test.setTimeout(240_000);
  const run = randomUUID().slice(0, 8);
  const fileName = `e2e-bulk-${run}.csv`;
  const prefix = `https://example.com/e2e/bulk/${run}/`;
  const csv = ['url', ...Array.from({ length: ROWS }, (_, index) => `${prefix}${index}`)].join(
    '\n',
  );

  await page.goto('/app/login');
  await logIn(page, BULK_USER, DEMO_PASSWORD);
  // Signed in once Log out shows: the navigation is there for guests too.
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.waitForURL(/\/app(\/dashboard)?$/);
  const form = await openCreatePanel(page);

  await form.getByText('Bulk', { exact: true }).click();
  await expect(form.getByLabel('The first row is a header')).toBeChecked();
  // Nothing chosen yet: the form says so before anything is sent.
  await form.getByRole('button', { name: 'Upload file' }).click();
  await expect(form.getByText('The file field is required.')).toBeVisible();

  await form.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await form.getByRole('button', { name: 'Upload file' }).click();

  await expect(form.getByText('Batch scheduled')).toBeVisible({ timeout: 30_000 });
  await expect(form.getByText(/Total items added/)).toBeVisible();
  await expect(form.getByText(String(ROWS), { exact: true })).toBeVisible();

  const admin = serviceClient();
  const notification = await waitFor('the batch notification', async () => {
    const { data, error } = await admin
      .from('notifications')
      .select('type, body, user:user_id')
      .like('body', `%${fileName}%`);
    if (error) throw new Error(error.message);
    return data[0] ?? null;
  });
  expect(notification.type).toBe('bulk_import.completed');
  expect(notification.body).toBe(`${ROWS} of ${ROWS} links from ${fileName} were created.`);

  const { data: destinations, error } = await admin
    .from('long_urls')
    .select('id')
    .like('url', `${prefix}%`);
  if (error) throw new Error(error.message);
  expect(destinations).toHaveLength(ROWS);
  const aliases = await admin
    .from('aliases')
    .select('id', { count: 'exact', head: true })
    .in(
      'long_url_id',
      destinations.map((row) => row.id),
    );
  if (aliases.error) throw new Error(aliases.error.message);
  expect(aliases.count).toBe(ROWS);

  // Start another batch: the bulk form is back.
  await form.getByRole('button', { name: 'Start another batch' }).click();
  await expect(form.getByRole('button', { name: 'Upload file' })).toBeVisible();
});
