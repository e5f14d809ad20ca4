import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { subscribeToBusiness } from '../support/plans.ts';
import { logIn, serviceClient, signedInClient } from '../support/shell.ts';
import { openShortUrl, stackShortUrl } from '../support/short-links.ts';

/** A common domain anyone signed in may use (supabase/seeds/20_links.sql). */
const DOMAIN = 'shrt.localhost';
/** Addresses GeoLite2 places in Germany and in the United Kingdom. */
const GERMAN_IP = '85.214.132.117';
const BRITISH_IP = '81.2.69.142';

async function clickCount(alias: string): Promise<number> {
  const admin = serviceClient();
  const { data: link } = await admin.from('aliases').select('id').eq('alias', alias).single();
  const { count } = await admin
    .from('clicks')
    .select('*', { count: 'exact', head: true })
    .eq('alias_id', link?.id ?? '');
  return count ?? 0;
}

test('a Business user routes German visitors elsewhere, tests it first; the preview counts nothing', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser({ userMetadata: { name: 'Rita Routes' } });
  await subscribeToBusiness(user);
  const alias = `e2e-route-${randomUUID().slice(0, 8)}`;
  const destination = `https://example.com/e2e/${alias}`;
  const client = await signedInClient(user);
  const { error } = await client.rpc('create_link', {
    p_url: destination,
    p_domain: DOMAIN,
    p_alias: alias,
  });
  expect(error).toBeNull();
  await client.auth.signOut();

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app/dashboard');
  await page.getByRole('button', { name: `More actions for ${DOMAIN}/${alias}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${DOMAIN}/${alias}` });
  const rules = dialog.getByRole('region', { name: 'Redirect rules' });
  await rules.getByRole('button', { name: 'Add rule' }).click();
  const rule = rules.getByRole('group', { name: 'Rule 1' });
  await expect(rule.getByLabel('Value', { exact: true })).toHaveValue('Country');
  await rule.getByRole('textbox', { name: 'Values', exact: true }).fill('DE');
  await rule.getByRole('textbox', { name: 'Then go to' }).fill('https://example.de/');
  // A second condition, either of the two sufficing: "… or the language is French".
  await rule.getByRole('button', { name: 'Add condition' }).click();
  const french = rule.getByRole('group', { name: 'Rule 1, condition 2' });
  await french.getByRole('combobox', { name: 'Value', exact: true }).click();
  await page.getByRole('option', { name: 'Language', exact: true }).click();
  await french.getByRole('textbox', { name: 'Values', exact: true }).fill('fr');
  await rule.getByRole('combobox', { name: 'Holds when' }).click();
  await page.getByRole('option', { name: 'Any rule matches' }).click();

  // Tried on sample visitors before saving, with the redirector's own evaluator.
  const tester = rules.getByRole('group', { name: 'Test the rules' });
  await tester.getByRole('textbox', { name: 'Sample country' }).fill('DE');
  await tester.getByRole('button', { name: 'Test' }).click();
  await expect(tester.getByRole('status')).toHaveText(
    'Rule 1 matches: goes to https://example.de/',
  );
  await tester.getByRole('textbox', { name: 'Sample country' }).fill('FR');
  await tester.getByRole('button', { name: 'Test' }).click();
  await expect(tester.getByRole('status')).toHaveText(
    `No rule matches: goes to the link's destination ${destination}`,
  );
  await tester.getByRole('textbox', { name: 'Sample language' }).fill('fr');
  await tester.getByRole('button', { name: 'Test' }).click();
  await expect(tester.getByRole('status')).toHaveText(
    'Rule 1 matches: goes to https://example.de/',
  );
  await rules.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByText('The redirect rules were saved.')).toBeVisible();

  // The short link: a German address goes to the rule's URL, others to the destination.
  const short = stackShortUrl(DOMAIN, alias);
  await expect
    .poll(async () => (await openShortUrl(short, { 'x-forwarded-for': GERMAN_IP })).location)
    .toBe('https://example.de/');
  expect((await openShortUrl(short, { 'x-forwarded-for': BRITISH_IP })).location).toBe(destination);
  await expect.poll(() => clickCount(alias)).toBeGreaterThanOrEqual(2);
  const counted = await clickCount(alias);

  // The preview page and the `+` preview show the destination and count nothing.
  await page.goto(`/preview/deprecated/${alias}?domain=${DOMAIN}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Link preview' })).toBeVisible();
  await expect(page.getByLabel('Destination')).toHaveText(destination);
  await expect(page.getByText('Safe: this destination passed our safety checks.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Visit' })).toHaveAttribute('href', short);
  const plus = await openShortUrl(`${short}+`);
  expect(plus.status).toBe(200);
  // Longer than the redirector's flush interval (250 ms): a counted preview would show.
  await page.waitForTimeout(1_000);
  expect(await clickCount(alias)).toBe(counted);
});
