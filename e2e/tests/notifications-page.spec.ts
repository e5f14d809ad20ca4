import type { TestUser } from '../support/factories.ts';
import { expect, test } from '../support/fixtures.ts';
import { logIn, serviceClient } from '../support/shell.ts';

/** Notifications are sent by the service role (the schema gives users no insert). */
async function notify(user: TestUser, title: string, body: string): Promise<void> {
  const { error } = await serviceClient()
    .from('notifications')
    .insert({ user_id: user.id, type: 'e2e.test', title, body });
  if (error) throw new Error(`Could not notify ${user.email}: ${error.message}`);
}

/**
 * Announcements published before `until` count as read, so only the test's own rows are new
 * (other specs publish announcements while this one runs: a time ahead keeps theirs read too).
 */
async function readAnnouncementsUntil(user: TestUser, until: Date): Promise<void> {
  const { error } = await serviceClient()
    .from('profiles')
    .update({ last_read_announcements_at: until.toISOString() })
    .eq('id', user.id);
  if (error) throw new Error(`Could not set the last-read time: ${error.message}`);
}

test.describe('notifications page', () => {
  test('a notification shows in the bell and on the page; marking it read clears the dot', async ({
    page,
    factories,
    saveScreenshot,
  }) => {
    const user = await factories.createConfirmedUser({ userMetadata: { name: 'Nia Notified' } });
    await readAnnouncementsUntil(user, new Date(Date.now() + 60 * 60_000));
    await notify(user, 'Batch completed', '3 of 3 links from links.csv were created.');

    await page.goto('/app/login');
    await logIn(page, user.email, user.password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

    await page.goto('/app/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    const row = page.getByRole('listitem', { name: /Batch completed/ });
    await expect(row).toContainText('3 of 3 links from links.csv were created.');
    await expect(row).toContainText('New');
    await saveScreenshot('notifications-page');

    await row.getByRole('button', { name: 'Mark "Batch completed" read' }).click();
    await expect(row.getByRole('button', { name: /Mark .* read/ })).toHaveCount(0);
    await expect(row).not.toContainText('New');
    await expect(row).toBeFocused();
    await expect(nav.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

    // Read in the database too: a reload still shows no dot.
    await page.reload();
    await expect(nav.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  });

  test('Mark all read reads every notification and the announcements', async ({
    page,
    factories,
  }) => {
    const user = await factories.createConfirmedUser();
    await readAnnouncementsUntil(user, new Date());
    await notify(user, 'First', 'one');
    await notify(user, 'Second', 'two');
    const title = `Announcement for ${user.email}`;
    const admin = serviceClient();
    const { error } = await admin
      .from('announcements')
      .insert({ title, body: 'Fresh news.', published_at: new Date().toISOString() });
    if (error) throw new Error(`Could not publish: ${error.message}`);

    try {
      await page.goto('/app/login');
      await logIn(page, user.email, user.password);
      const nav = page.getByRole('navigation', { name: 'Main' });
      // Three of ours (another spec's announcement may add one).
      await expect(
        nav.getByRole('button', { name: /^Notifications, [3-9] unread$/ }),
      ).toBeVisible();

      await page.goto('/app/notifications');
      await expect(page.getByRole('listitem', { name: new RegExp(title) })).toContainText('New');
      await page.getByRole('button', { name: 'Mark all read' }).click();
      await expect(page.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
      await expect(page.getByText('New', { exact: true })).toHaveCount(0);
      await expect(nav.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    } finally {
      await admin.from('announcements').delete().eq('title', title);
    }
  });
});
