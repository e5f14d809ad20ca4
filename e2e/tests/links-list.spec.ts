import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import type { TestUser } from '../support/factories.ts';
import { subscribeToPro } from '../support/plans.ts';
import { logIn, serviceClient, signedInClient } from '../support/shell.ts';
import { stackShortUrl } from '../support/short-links.ts';

/** A common domain anyone signed in may use (supabase/seeds/20_links.sql). */
const DOMAIN = 'shrt.localhost';

/** Creates links as the user through the create_link RPC (the rules the form goes through). */
async function createLinks(user: TestUser, links: { alias: string; tags: string[] }[]) {
  const client = await signedInClient(user);
  for (const link of links) {
    const { error: createError } = await client.rpc('create_link', {
      p_url: `https://example.com/e2e/${link.alias}`,
      p_domain: DOMAIN,
      p_alias: link.alias,
      p_tags: link.tags,
    });
    if (createError) throw new Error(`Could not create ${link.alias}: ${createError.message}`);
  }
  await client.auth.signOut();
}

async function search(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Search links' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

async function linkAction(page: Page, name: string, action: 'Edit' | 'Archive' | 'Delete') {
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('a user finds a link by search, edits its alias and tags, archives and deletes it', async ({
  page,
  factories,
}) => {
  const user = await factories.createConfirmedUser({ userMetadata: { name: 'Lin List' } });
  await subscribeToPro(user);
  const suffix = randomUUID().slice(0, 8);
  const alias = `e2e-${suffix}`;
  const renamed = `e2e-renamed-${suffix}`;
  await createLinks(user, [
    { alias, tags: ['alpha'] },
    { alias: `e2e-other-${suffix}`, tags: [] },
  ]);

  await page.goto('/app/login');
  await logIn(page, user.email, user.password);
  await expect(page).toHaveURL('/app/dashboard');
  const original = page.getByRole('article', { name: `${DOMAIN}/${alias}` });
  const other = page.getByRole('article', { name: `${DOMAIN}/e2e-other-${suffix}` });
  await expect(original).toBeVisible();
  await expect(other).toBeVisible();

  // Search: by alias, only that link.
  await search(page, `alias:${alias}`);
  await expect(page).toHaveURL(/[?&]q=alias%3Ae2e-/);
  await expect(original).toBeVisible();
  await expect(other).toHaveCount(0);

  // Edit: a taken alias is refused with the spec's message; a free one is saved with a new tag.
  await linkAction(page, `${DOMAIN}/${alias}`, 'Edit');
  const dialog = page.getByRole('dialog', { name: `Edit ${DOMAIN}/${alias}` });
  await dialog.getByRole('textbox', { name: 'Alias' }).fill(`e2e-other-${suffix}`);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('The new alias is not unique')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Alias' }).fill(renamed);
  const tags = dialog.getByRole('combobox', { name: 'Tags' });
  await tags.fill('Beta Tag');
  await tags.press('Enter');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);

  await search(page, 'tag:betatag');
  const edited = page.getByRole('article', { name: `${DOMAIN}/${renamed}` });
  await expect(edited).toBeVisible();
  await expect(edited.getByText('alpha', { exact: true })).toBeVisible();
  await expect(edited.getByText('betatag', { exact: true })).toBeVisible();
  await expect(edited.getByRole('link', { name: `Visit ${DOMAIN}/${renamed}` })).toHaveAttribute(
    'href',
    stackShortUrl(DOMAIN, renamed),
  );

  // Archive: gone from the active links, listed among the archived ones.
  await linkAction(page, `${DOMAIN}/${renamed}`, 'Archive');
  await expect(page.getByText(`${DOMAIN}/${renamed} was archived.`)).toBeVisible();
  await expect(edited).toHaveCount(0);
  await expect(page.getByText('No active links match “tag:betatag”.')).toBeVisible();
  await page.getByText('Archived', { exact: true }).click();
  await expect(page).toHaveURL(/state=archived/);
  await expect(edited).toBeVisible();

  // Delete: asked first, then gone from every list.
  await linkAction(page, `${DOMAIN}/${renamed}`, 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete link' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${DOMAIN}/${renamed} was deleted.`)).toBeVisible();
  await expect(edited).toHaveCount(0);
  await expect(page.getByText('No archived links match “tag:betatag”.')).toBeVisible();

  const { data: row } = await serviceClient()
    .from('aliases')
    .select('status')
    .eq('alias', renamed)
    .single();
  expect(row?.status).toBe('deleted');
});

test("a guest's My URLs lists this browser's links and clears them after asking", async ({
  page,
}) => {
  await page.goto('/app');
  await page.evaluate(() => {
    window.localStorage.setItem(
      'guestLinkHistory',
      JSON.stringify([
        {
          alias: 'g7h2k9mn',
          domain: 'shrt.localhost',
          longUrl: 'https://www.example.com/guest-page',
          createdAt: new Date().toISOString(),
        },
      ]),
    );
  });
  await page.goto('/app/my-urls');
  const card = page.getByRole('article', { name: 'shrt.localhost/g7h2k9mn' });
  await expect(card).toBeVisible();
  await expect(card.getByText('https://www.example.com/guest-page')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Visit shrt.localhost/g7h2k9mn' })).toHaveAttribute(
    'href',
    stackShortUrl('shrt.localhost', 'g7h2k9mn'),
  );

  await page.getByRole('link', { name: 'Clear history' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear history' });
  await dialog.getByRole('button', { name: 'Clear history' }).click();
  await expect(page).toHaveURL('/app/my-urls');
  await expect(page.getByText('No short links made in this browser yet.')).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('guestLinkHistory'))).toBeNull();
});
