import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnnouncementRow, NotificationRow } from '../../features/notifications/feed.ts';
import { json, postgrestError, tableRows, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import { notificationSeries, scriptFeed } from './testFeed.ts';

// Whole conversations with the shell on a shared 2-core machine: more than the default 5 s.
const SLOW = 20_000;

const ANNOUNCEMENTS: AnnouncementRow[] = [
  {
    id: 'a-new',
    title: 'Tags are here',
    body: 'Organise your links with tags.',
    url: null,
    published_at: '2026-11-21T11:59:30Z',
  },
  {
    id: 'a-old',
    title: 'Branded domains',
    body: 'Use your own domain.',
    url: null,
    published_at: '2026-11-01T00:00:00Z',
  },
];

function renderPage(notifications: NotificationRow[], announcements = ANNOUNCEMENTS) {
  const backend = new TestBackend();
  const world = signedInWorld({ lastReadAnnouncementsAt: '2026-11-10T00:00:00Z' });
  const feed = { notifications, announcements };
  const rendered = renderApp({ route: '/app/notifications', world, backend });
  scriptFeed(backend, feed);
  backend.on('POST', '/rest/v1/rpc/mark_announcements_read', () => {
    world.lastReadAnnouncementsAt = '2026-11-22T12:00:00Z';
    return json(world.lastReadAnnouncementsAt);
  });
  return { ...rendered, feed };
}

const list = async () => {
  await screen.findByRole('heading', { level: 1, name: 'Notifications' });
  return within(await screen.findByRole('list')).getAllByRole('listitem', {
    name: (_, element) => element.hasAttribute('data-entry'),
  });
};
const entryIds = (items: HTMLElement[]) => items.map((item) => item.getAttribute('data-entry'));

describe('the notifications page', () => {
  it(
    'lists notifications and announcements newest first, a page at a time, none twice',
    async () => {
      const notifications = notificationSeries(25);
      // Four rows of one instant across the page boundary: the cursor must neither skip nor repeat.
      for (const row of notifications.slice(17, 21)) row.created_at = notifications[17]!.created_at;
      const { user } = renderPage(notifications);

      const first = await list();
      expect(first).toHaveLength(20);
      expect(entryIds(first).slice(0, 3)).toEqual([
        'notification-n-01',
        'announcement-a-new',
        'notification-n-02',
      ]);
      expect(first[1]).toHaveTextContent('Announcement');
      expect(first[1]).toHaveTextContent('New');
      expect(document.title).toBe('Notifications · Shortlane');

      await user.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(async () => expect(await list()).toHaveLength(27));
      const all = entryIds(await list());
      expect(new Set(all).size).toBe(27);
      expect(all.slice(-2)).toEqual(['notification-n-25', 'announcement-a-old']);
      expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    },
    SLOW,
  );

  it(
    'marks one notification read: its button goes, the focus stays on its row',
    async () => {
      const { user, backend, feed } = renderPage(notificationSeries(2));
      await list();
      await user.click(screen.getByRole('button', { name: 'Mark "Notice 2" read' }));
      await waitFor(() =>
        expect(screen.queryByRole('button', { name: 'Mark "Notice 2" read' })).toBeNull(),
      );
      const call = backend.requestsTo('POST', '/rest/v1/rpc/mark_notifications_read')[0]!;
      expect(await call.json()).toEqual({ p_notification_ids: ['n-02'] });
      expect(feed.notifications[1]!.read_at).not.toBeNull();
      const row = (await list()).find((item) => item.dataset.entry === 'notification-n-02')!;
      expect(row).toHaveFocus();
      expect(row).not.toHaveTextContent('New');
      expect(screen.getByRole('button', { name: 'Mark "Notice 1" read' })).toBeVisible();
      expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(
        '"Notice 2" marked read.',
      );
    },
    SLOW,
  );

  it(
    'keeps the focus on the row when the list is refreshed before the unread count',
    async () => {
      const { user, backend, feed } = renderPage(notificationSeries(2));
      await list();
      // After the mark, the unread count answers last: the list shows the row read (and its
      // button gone) while the mark still waits for that refresh.
      const countRows = backend.requestsTo('HEAD', '/rest/v1/notifications').length;
      backend.on('HEAD', '/rest/v1/notifications', async (request, url) => {
        if (feed.notifications[1]!.read_at) await new Promise((done) => setTimeout(done, 300));
        return tableRows(feed.notifications.filter((row) => row.read_at == null))(request, url);
      });
      await user.click(screen.getByRole('button', { name: 'Mark "Notice 2" read' }));
      const row = (await list()).find((item) => item.dataset.entry === 'notification-n-02')!;
      await waitFor(() => expect(row).not.toHaveTextContent('New'));
      await waitFor(() =>
        expect(backend.requestsTo('HEAD', '/rest/v1/notifications').length).toBeGreaterThan(
          countRows,
        ),
      );
      await waitFor(() => expect(row).toHaveFocus(), { timeout: 2_000 });
      expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(
        '"Notice 2" marked read.',
      );
    },
    SLOW,
  );

  it(
    'says when a notification could not be marked read, and keeps its button',
    async () => {
      const { user, backend } = renderPage(notificationSeries(2));
      await list();
      backend.on('POST', '/rest/v1/rpc/mark_notifications_read', () =>
        postgrestError(500, { message: 'boom' }),
      );
      await user.click(screen.getByRole('button', { name: 'Mark "Notice 2" read' }));
      expect(
        await screen.findByText('"Notice 2" could not be marked read. Please try again.'),
      ).toBeVisible();
      expect(screen.getByRole('button', { name: 'Mark "Notice 2" read' })).toBeEnabled();
    },
    SLOW,
  );

  it(
    'marks everything read: every unread notification, and the announcements',
    async () => {
      const { user, backend } = renderPage([
        ...notificationSeries(2),
        ...notificationSeries(1, Date.UTC(2026, 9, 1), '2026-10-02T00:00:00Z').map((row) => ({
          ...row,
          id: 'n-read',
        })),
      ]);
      await list();
      const markAll = screen.getByRole('button', { name: 'Mark all read' });
      await waitFor(() => expect(markAll).toBeEnabled());
      await user.click(markAll);
      await waitFor(() =>
        expect(backend.requestsTo('POST', '/rest/v1/rpc/mark_announcements_read')).toHaveLength(1),
      );
      const call = backend.requestsTo('POST', '/rest/v1/rpc/mark_notifications_read')[0]!;
      expect(await call.json()).toEqual({ p_notification_ids: ['n-01', 'n-02'] });
      await waitFor(async () =>
        expect((await list()).every((item) => !item.textContent?.includes('New'))).toBe(true),
      );
      expect(screen.getByRole('heading', { level: 1, name: 'Notifications' })).toHaveFocus();
      await waitFor(() => expect(markAll).toBeDisabled());
    },
    SLOW,
  );

  it(
    'says when everything could not be marked read, and leaves the rows unread',
    async () => {
      const { user, backend } = renderPage(notificationSeries(2));
      await list();
      backend.on('POST', '/rest/v1/rpc/mark_announcements_read', () =>
        postgrestError(500, { message: 'boom' }),
      );
      const markAll = screen.getByRole('button', { name: 'Mark all read' });
      await waitFor(() => expect(markAll).toBeEnabled());
      await user.click(markAll);
      expect(
        await screen.findByText('Your notifications could not be marked read. Please try again.'),
      ).toBeVisible();
      expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('');
      expect(markAll).toBeEnabled();
    },
    SLOW,
  );

  it('says when there is nothing yet', async () => {
    renderPage([], []);
    expect(await screen.findByText('You have no notifications yet.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it(
    'says when the list could not be loaded, and tries again',
    async () => {
      const { user, backend } = renderPage(notificationSeries(1));
      let failing = true;
      backend.on('GET', '/rest/v1/announcements', () =>
        failing
          ? postgrestError(500, { message: 'boom' })
          : json([], { headers: { 'content-range': '*/0' } }),
      );
      const alert = await screen.findByRole('alert', { name: /could not be loaded/ });
      failing = false;
      await user.click(within(alert).getByRole('button', { name: 'Try again' }));
      expect(entryIds(await list())).toEqual(['notification-n-01']);
    },
    SLOW,
  );
});
