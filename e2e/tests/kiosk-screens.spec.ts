import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { serviceClient } from '../support/shell.ts';
import { fillField, makeStaff, openCreatePage, openKioskAsStaff } from './kiosk-support.ts';

/**
 * The kiosk's other screens against the demo data: each loads its data through RLS as staff,
 * and its main action lands in the database. Rows a test adds are removed again.
 */
test.describe('kiosk screens', () => {
  test('aliases: search, open a link with its clicks, follow it to its destination', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
    await page.getByRole('menuitem', { name: 'Aliases' }).click();
    await page.getByPlaceholder('Alias, domain, URL or owner').fill('k3v9x2ab');
    await expect(page).toHaveURL(/filter=/);
    await expect(page.getByRole('row')).toHaveCount(2);
    await page.getByRole('cell', { name: 'k3v9x2ab' }).click();
    await expect(page.getByText(/Clicks in the last 30 days: [1-9]/)).toBeVisible();
    await expect(page.getByText('https://en.wikipedia.org/wiki/URL_shortening')).toBeVisible();
    await saveScreenshot('kiosk-alias');

    // The spec's address for the same link.
    await page.goto(`${appUrls.kiosk}/alias/shrt.localhost/k3v9x2ab`);
    await expect(page).toHaveURL(/\/aliases\/00000000-0000-4000-8000-000000002001\/show$/);
    await page.getByRole('link', { name: 'active' }).click();
    await expect(page).toHaveURL(/\/long-urls\/.+\/show$/);
    await expect(page.getByRole('cell', { name: 'k3v9x2ab' })).toBeVisible();
  });

  test('stats: system figures over time, for a domain, and the link totals', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
    await page.getByRole('menuitem', { name: 'System stats' }).click();
    await expect(page.getByRole('heading', { name: 'System stats', level: 1 })).toBeVisible();
    await expect(page.getByText('Clicks', { exact: true }).first()).toBeVisible();
    await expect(page.locator('.recharts-line')).toHaveCount(4);
    await saveScreenshot('kiosk-stats-system');

    await page.goto(`${appUrls.kiosk}/stats/system/shrt.localhost`);
    await expect(
      page.getByRole('heading', { name: 'System stats for shrt.localhost' }),
    ).toBeVisible();
    await expect(page.getByText('Links and clicks are those of shrt.localhost')).toBeVisible();

    await page.getByRole('menuitem', { name: 'Link stats' }).click();
    await expect(page.getByRole('heading', { name: 'Links per domain' })).toBeVisible();
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await saveScreenshot('kiosk-stats-links');
  });

  test('domains, IP blocks, password dictionary and TLD prices are kept from the kiosk', async ({
    page,
    factories,
  }) => {
    const admin = serviceClient();
    const domain = `kiosk-${randomUUID().slice(0, 8)}.example`;
    const word = `kioskword${randomUUID().slice(0, 6)}`;
    const { data: created } = await admin
      .from('domains')
      .insert({ domain, kind: 'common' })
      .select('id')
      .single();
    try {
      await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));

      // domain/{domain}: open it and switch flags.
      await page.goto(`${appUrls.kiosk}/domain/${domain}`);
      await expect(page).toHaveURL(new RegExp(`/domains/${created!.id}/show$`));
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('switch', { name: 'Subscribers only' }).check();
      await page.getByRole('switch', { name: 'Verified', exact: true }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(new RegExp(`/domains/${created!.id}/show$`));
      await expect
        .poll(async () => {
          const { data } = await admin
            .from('domains')
            .select('subscribed_only, verification_status')
            .eq('id', created!.id)
            .single();
          return data;
        })
        .toEqual({ subscribed_only: true, verification_status: 'verified' });

      // ips: a range with host bits set is refused before it reaches the database.
      await openCreatePage(page, 'IP blocks', 'ips');
      const range = page.getByRole('textbox', { name: 'Address or range', exact: true });
      await fillField(range, '192.0.2.77/24');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(/bits set beyond the prefix/)).toBeVisible();
      await fillField(range, '192.0.2.77');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('cell', { name: '192.0.2.77/32' })).toBeVisible();

      // password_dictionary: stored lower-case.
      await openCreatePage(page, 'Password dictionary', 'password_dictionary');
      await fillField(
        page.getByRole('textbox', { name: 'Word', exact: true }),
        word.toUpperCase(),
        word,
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(/\/password_dictionary/);
      const { data: words } = await admin
        .from('password_dictionary')
        .select('word')
        .eq('word', word);
      expect(words).toEqual([{ word }]);

      // tld_overprice: the price follows cost and overprice.
      await page.getByRole('menuitem', { name: 'TLD overprice' }).click();
      await page.getByRole('cell', { name: '.io', exact: true }).click();
      await fillField(
        page.getByRole('spinbutton', { name: 'Overprice (minor units a year)', exact: true }),
        '650',
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('cell', { name: '$46.49' })).toBeVisible();
    } finally {
      await admin.from('domains').delete().eq('id', created!.id);
      await admin.from('ip_blocks').delete().eq('range', '192.0.2.77/32');
      await admin.from('password_dictionary').delete().eq('word', word);
      await admin.from('tld_prices').update({ overprice_amount: 500 }).eq('tld', 'io');
    }
  });

  test('DNS zones, surveys and access invitations', async ({ page, factories, saveScreenshot }) => {
    const admin = serviceClient();
    const zone = `zone-${randomUUID().slice(0, 8)}.example`;
    const invitee = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    try {
      await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));

      // cloudflare/zones: create through kiosk-dns (the local sandbox), sync, delete.
      await openCreatePage(page, 'DNS zones', 'cloudflare/zones');
      await fillField(page.getByRole('textbox', { name: 'Zone (domain)', exact: true }), zone);
      await page.getByRole('button', { name: 'Save' }).click();
      // Found by its name: the list holds every zone of the account (purchased names' too), a
      // page of them at a time.
      await page.getByPlaceholder('Zone').fill(zone);
      const row = page.getByRole('row').filter({ hasText: zone });
      await expect(row).toContainText('pending');
      await page.getByRole('button', { name: 'Sync with provider' }).click();
      await expect(row).toContainText('active');
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(row).toHaveCount(0);

      // surveys/{survey}: the onboarding survey's questions with their answers summary.
      await page.goto(`${appUrls.kiosk}/surveys/00000000-0000-4000-8000-000000000901`);
      await expect(page).toHaveURL(/\/surveys\/00000000-0000-4000-8000-000000000901\/show$/);
      await expect(page.getByText('1. What will you use short links for?')).toBeVisible();
      await expect(page.getByText('3. Anything else?')).toBeVisible();
      await saveScreenshot('kiosk-survey');

      // access-invitations: the token is shown once, stored only hashed.
      await openCreatePage(page, 'Access invitations', 'access-invitations');
      await fillField(page.getByRole('textbox', { name: 'Email', exact: true }), invitee);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(`Invitation created for ${invitee}`)).toBeVisible();
      const token = await page.getByRole('textbox', { name: 'Invitation token' }).inputValue();
      expect(token).toMatch(/^[0-9a-f]{48}$/);
      const { data: stored } = await admin
        .from('access_invitations')
        .select('token_hash')
        .eq('email', invitee)
        .single();
      expect(stored?.token_hash).not.toContain(token);
    } finally {
      await admin.from('dns_zones').delete().eq('name', zone);
      await admin.from('access_invitations').delete().eq('email', invitee);
    }
  });

  test('users: switch the status flags, ban and unban', async ({ page, factories }) => {
    const user = await factories.createConfirmedUser();
    await openKioskAsStaff(page, await makeStaff(await factories.createConfirmedUser()));
    await page.goto(`${appUrls.kiosk}/user/${user.id}`);
    await expect(page).toHaveURL(new RegExp(`/users/${user.id}/show$`));

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('switch', { name: 'No affiliate' }).check();
    await page.getByRole('switch', { name: 'Hide invoices' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => {
        const { data } = await serviceClient()
          .from('profiles')
          .select('status')
          .eq('id', user.id)
          .single();
        return data?.status;
      })
      .toBe(4 | 16);

    await page.goto(`${appUrls.kiosk}/users/${user.id}/show`);
    await page.getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('User banned')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unban' })).toBeVisible();
    await page.getByRole('button', { name: 'Unban' }).click();
    await expect(page.getByText('User unbanned')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ban', exact: true })).toBeVisible();
  });
});
