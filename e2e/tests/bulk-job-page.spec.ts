import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { openCreatePanel } from '../support/create-form.ts';
import { expect, test } from '../support/fixtures.ts';
import { DEMO_PASSWORD, logIn, serviceClient } from '../support/shell.ts';

/**
 * A bulk import's page (ours: /app/bulk/{jobId}; the spec names none): the bulk result and the
 * batch's notification lead there, and it says why each refused row was refused.
 */

/** Business plan personally (use_bulk), owner of Acme (supabase/seeds/10_accounts.sql). */
const BULK_USER = 'owner@shortlane.test';

test('the job page lists the refused rows with their lines and messages, and the CSV', async ({
  page,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  const run = randomUUID().slice(0, 8);
  const fileName = `e2e-refused-${run}.csv`;
  // Three rows, none of which can become a link.
  const csv = ['url,alias', 'not a url,', `https://example.com/${run},bad alias!`, 'ftp://x,'].join(
    '\n',
  );

  await page.goto('/app/login');
  await logIn(page, BULK_USER, DEMO_PASSWORD);
  // Signed in once Log out shows: the navigation is there for guests too.
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  const form = await openCreatePanel(page);
  await form.getByText('Bulk', { exact: true }).click();
  await form.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await form.getByRole('button', { name: 'Upload file' }).click();
  await expect(form.getByText('Batch scheduled')).toBeVisible({ timeout: 30_000 });

  await form.getByRole('link', { name: 'Follow the batch' }).click();
  await expect(page).toHaveURL(/\/app\/bulk\/[0-9a-f-]{36}$/);
  const jobId = page.url().split('/').pop()!;
  await expect(page.getByRole('dialog', { name: 'Create Short Link' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Bulk import' })).toBeVisible();
  await expect(page.getByText(fileName)).toBeVisible();
  // The page follows the job by itself until it ends.
  await expect(page.getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });

  // What the database stored for each row is what the table says, line by line.
  const { data: job, error } = await serviceClient()
    .from('bulk_jobs')
    .select('errors')
    .eq('id', jobId)
    .single();
  if (error) throw new Error(error.message);
  const stored = Object.entries(job.errors as Record<string, Record<string, string[]>>)
    .flatMap(([line, fields]) =>
      Object.entries(fields).map(([field, messages]) => [line, field, messages.join(' ')]),
    )
    .sort(([a, fa], [b, fb]) => Number(a) - Number(b) || fa!.localeCompare(fb!));
  expect(stored.map(([line]) => line)).toEqual(['2', '3', '4']);

  const table = page.getByRole('table', { name: 'Refused rows' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(1 + stored.length);
  for (const [index, [line, field, message]] of stored.entries()) {
    await expect(rows.nth(index + 1).getByRole('cell')).toHaveText([field!, message!]);
    await expect(rows.nth(index + 1).getByRole('rowheader')).toHaveText(line!);
  }
  await expect(page.getByText('Links created').locator('xpath=..')).toContainText('0');
  await expect(page.getByText('Rows refused').locator('xpath=..')).toContainText('3');
  await saveScreenshot('bulk-job-page');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the result CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`e2e-refused-${run}-result.csv`);
  const result = await readFile((await download.path())!, 'utf8');
  expect(result.split('\r\n')[0]).toBe('row,url,alias,short_url,tags,status,errors');
  expect(result.match(/,failed,/g)).toHaveLength(3);

  // The batch's notification leads to the same page.
  await page.goto('/app/notifications');
  const entry = page.getByRole('listitem').filter({ hasText: fileName });
  await expect(entry).toContainText(`0 of 3 links from ${fileName} were created.`);
  await entry.getByRole('link', { name: /See the batch/ }).click();
  await expect(page).toHaveURL(new RegExp(`/app/bulk/${jobId}$`));
  await expect(page.getByRole('table', { name: 'Refused rows' })).toBeVisible();
});

test('a batch that does not exist says so', async ({ page }) => {
  await page.goto('/app/login');
  await logIn(page, BULK_USER, DEMO_PASSWORD);
  // Signed in once Log out shows: the navigation is there for guests too.
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto(`/app/bulk/${randomUUID()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Batch not found' })).toBeVisible();
});
