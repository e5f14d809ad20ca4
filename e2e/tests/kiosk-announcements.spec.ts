import { randomUUID } from 'node:crypto';
import { appUrls, expect, test } from '../support/fixtures.ts';
import { serviceClient, signedInClient } from '../support/shell.ts';
import {
  fillField,
  makeStaff,
  openCreatePage,
  openKioskAsStaff,
  signInToPortal,
} from './kiosk-support.ts';

test.describe('kiosk announcements', () => {
  test('staff write an announcement, publish it, and signed-in users receive it', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    // Two apps, two sign-ins: react-admin's first render alone takes seconds of CPU.
    test.slow();
    const title = `Release notes ${randomUUID().slice(0, 8)}`;
    const staff = await makeStaff(await factories.createConfirmedUser());
    const user = await factories.createConfirmedUser();
    const portalUser = await signedInClient(user);
    // What the portal's bell reads: the announcements a signed-in user may see.
    const visibleToUser = async () => {
      const { data, error } = await portalUser
        .from('announcements')
        .select('title, body, published_at')
        .eq('title', title);
      if (error) throw new Error(error.message);
      return data;
    };

    try {
      await openKioskAsStaff(page, staff);
      await openCreatePage(page, 'Announcements', 'announcements');
      await fillField(page.getByRole('textbox', { name: 'Title', exact: true }), title);
      await fillField(
        page.getByRole('textbox', { name: 'Body', exact: true }),
        'Tags now work in bulk imports.',
      );
      await page.getByRole('button', { name: 'Save' }).click();

      // Saved as a draft: users see nothing yet.
      await expect(page.getByRole('button', { name: 'Publish' })).toBeVisible();
      expect(await visibleToUser()).toEqual([]);

      await page.getByRole('button', { name: 'Publish' }).click();
      await expect(page.getByText('Every signed-in user will see it in the portal.')).toBeVisible();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
      await saveScreenshot('kiosk-announcement');

      await expect
        .poll(visibleToUser)
        .toEqual([
          { title, body: 'Tags now work in bulk imports.', published_at: expect.any(String) },
        ]);
      await page.goto(`${appUrls.kiosk}/announcements`);
      await expect(page.getByRole('cell', { name: title })).toBeVisible();

      // In the portal, the user's bell has a dot for it and lists it; opening the list reads it.
      const portal = await page.context().newPage();
      await signInToPortal(portal, user);
      const nav = portal.getByRole('navigation', { name: 'Main' });
      const bell = nav.getByRole('button', { name: /^Notifications, \d+ unread$/ });
      await bell.click();
      const dropdown = portal.getByRole('dialog', { name: 'Notifications' });
      const item = dropdown.getByRole('listitem').filter({ hasText: title });
      await expect(item).toBeVisible();
      await expect(item).toContainText('Tags now work in bulk imports.');
      await expect(item).toContainText('New');
      await saveScreenshot('portal-announcement-bell');
      await portal.keyboard.press('Escape');
      await expect(nav.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
      const { data: profile } = await serviceClient()
        .from('profiles')
        .select('last_read_announcements_at')
        .eq('id', user.id)
        .single();
      expect(profile?.last_read_announcements_at).not.toBeNull();
    } finally {
      await serviceClient().from('announcements').delete().eq('title', title);
    }
  });
});
