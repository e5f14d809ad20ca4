import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { openShortLink } from '../support/short-links.ts';
import { stackEnv } from '../support/stack.ts';
import { serviceClient, signedInClient } from '../support/shell.ts';
import { fillField, makeStaff, openCreatePage, openKioskAsStaff } from './kiosk-support.ts';

/** A common short domain of the demo seed (supabase/seeds/20_links.sql). */
const SHORT_DOMAIN = 'shrt.localhost';

test.describe('kiosk banned domains', () => {
  test('a banned domain is refused at link creation and its short links stop redirecting', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const banned = `e2e-ban-${randomUUID().slice(0, 8)}.example`;
    const destination = `https://www.${banned}/offer`;
    const staff = await makeStaff(await factories.createConfirmedUser());
    const user = await factories.createConfirmedUser();
    const client = await signedInClient(user);

    // A link made before the ban redirects.
    const { data: created, error: createError } = await client.rpc('create_link', {
      p_url: destination,
      p_domain: SHORT_DOMAIN,
    });
    expect(createError).toBeNull();
    const alias = (created as { aliases: { alias: string }[] }[])[0]!.aliases[0]!.alias;
    const before = await openShortLink(SHORT_DOMAIN, alias);
    expect(before.location).toBe(destination);
    expect([301, 302]).toContain(before.status);

    // Staff ban the domain in the kiosk.
    await openKioskAsStaff(page, staff);
    await openCreatePage(page, 'Banned domains', 'banned_domains');
    // Typed in capitals: the form keeps the lower-case name.
    await fillField(
      page.getByRole('textbox', { name: 'Domain', exact: true }),
      banned.toUpperCase(),
      banned,
    );
    await fillField(page.getByRole('textbox', { name: 'Reason', exact: true }), 'Phishing (e2e)');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(`${appUrls.kiosk}/banned_domains`);
    await expect(page.getByRole('cell', { name: banned, exact: true })).toBeVisible();
    await saveScreenshot('kiosk-banned-domains');

    // The create form's function refuses new links to it and to its subdomains…
    const env = stackEnv();
    const { data: session } = await client.auth.getSession();
    for (const url of [`https://${banned}/new`, `https://cdn.${banned}/x`]) {
      const response = await fetch(`${env.SUPABASE_URL}/functions/v1/links/url/create`, {
        method: 'POST',
        headers: {
          apikey: env.SUPABASE_ANON_KEY,
          authorization: `Bearer ${session.session!.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url, domain: SHORT_DOMAIN }),
      });
      expect(response.status, url).toBe(422);
      expect(await response.json()).toMatchObject({ errors: { url: ['This domain is banned.'] } });
    }
    // …and so does the RPC behind it.
    const refused = await client.rpc('create_link', { p_url: destination, p_domain: SHORT_DOMAIN });
    expect(refused.error).toMatchObject({
      message: 'url_banned',
      details: 'This domain is banned.',
    });

    // The existing short link stops redirecting: the visitor is told why.
    await expect
      .poll(async () => (await openShortLink(SHORT_DOMAIN, alias)).status, { timeout: 5_000 })
      .toBe(410);
    // The kiosk shows the link as pointing at a banned domain.
    await page.goto(`${appUrls.kiosk}/alias/${SHORT_DOMAIN}/${alias}`);
    await expect(page.getByText('destination domain banned')).toBeVisible();

    // Lifting the ban brings it back.
    await serviceClient().from('banned_domains').delete().eq('domain', banned);
    await expect
      .poll(async () => (await openShortLink(SHORT_DOMAIN, alias)).location, { timeout: 5_000 })
      .toBe(destination);
  });
});
