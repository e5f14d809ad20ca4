import { POLL_INTERVAL_MS } from '@shortlane/shared/constants.ts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID, type TestWorld } from '../../test/world.ts';

const ANNOUNCEMENT = {
  id: 'a-1',
  title: 'Branded domains',
  body: 'Use your own domain for short links.',
  url: 'https://example.com/news/domains',
  published_at: '2026-11-21T09:00:00Z',
};
const READ_NOTIFICATION = {
  id: 'n-read',
  title: 'Your subscription renewed',
  body: null,
  read_at: '2026-11-19T00:00:00Z',
  created_at: '2026-11-18T00:00:00Z',
};

async function bell(name: string | RegExp) {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  return within(nav).findByRole('button', { name });
}

const dotShown = (button: HTMLElement) =>
  within(button).getByTestId('unread-dot').querySelector('[class*=indicator]') != null;

afterEach(() => {
  vi.useRealTimers();
});

// Whole conversations with the shell on a shared 2-core machine: more than the default 5 s.
const SLOW = 20_000;

describe('the notification bell', () => {
  it(
    'shows a dot for unread notifications, and lists them newest first with the way to all',
    async () => {
      const world: TestWorld = signedInWorld({
        unreadNotifications: 1,
        notifications: [READ_NOTIFICATION],
        announcements: [{ ...ANNOUNCEMENT, published_at: '2026-11-01T00:00:00Z' }],
        lastReadAnnouncementsAt: '2026-11-10T00:00:00Z',
      });
      const { user, router, backend } = renderApp({ route: '/app/terms', world });
      const button = await bell('Notifications, 1 unread');
      expect(dotShown(button)).toBe(true);

      await user.click(button);
      const dropdown = await screen.findByRole('dialog', { name: 'Notifications' });
      const items = within(dropdown).getAllByRole('listitem');
      expect(items.map((item) => item.getAttribute('data-entry'))).toEqual([
        'notification-notification-unread-1',
        'notification-n-read',
        'announcement-a-1',
      ]);
      expect(items[0]).toHaveTextContent('New');
      expect(within(items[0]!).getByText(/unread/)).toBeInTheDocument();
      expect(items[1]).not.toHaveTextContent('New');
      expect(items[2]).toHaveTextContent('Announcement');
      // Nothing new among the announcements: their last-read time stays as it is.
      expect(backend.requestsTo('POST', '/rest/v1/rpc/mark_announcements_read')).toHaveLength(0);

      await user.click(within(dropdown).getByRole('link', { name: 'See all notifications' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/app/notifications'));
    },
    SLOW,
  );

  it(
    'shows a dot for an announcement published since the last read; opening marks them read',
    async () => {
      const backend = new TestBackend();
      const world = signedInWorld({
        announcements: [ANNOUNCEMENT],
        lastReadAnnouncementsAt: '2026-11-20T00:00:00Z',
      });
      const { user } = renderApp({ route: '/app/terms', world, backend });
      backend.on('POST', '/rest/v1/rpc/mark_announcements_read', () => {
        world.lastReadAnnouncementsAt = '2026-11-22T00:00:00Z';
        return json(world.lastReadAnnouncementsAt);
      });

      const button = await bell('Notifications, 1 unread');
      expect(dotShown(button)).toBe(true);
      await user.click(button);
      const dropdown = await screen.findByRole('dialog', { name: 'Notifications' });
      const item = within(dropdown).getByRole('listitem');
      expect(item).toHaveTextContent('Branded domains');
      expect(within(item).getByRole('link', { name: /Read more/ })).toHaveAttribute(
        'href',
        ANNOUNCEMENT.url,
      );
      await waitFor(() =>
        expect(backend.requestsTo('POST', '/rest/v1/rpc/mark_announcements_read')).toHaveLength(1),
      );
      // While it stays open the announcement keeps its mark; the bell itself is read.
      expect(within(dropdown).getByRole('listitem')).toHaveTextContent('New');
      const readBell = await bell('Notifications');
      expect(dotShown(readBell)).toBe(false);

      await user.keyboard('{Escape}');
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull(),
      );
      expect(readBell).toHaveFocus();
      await user.click(readBell);
      const reopened = await screen.findByRole('dialog', { name: 'Notifications' });
      expect(within(reopened).getByRole('listitem')).not.toHaveTextContent('New');
    },
    SLOW,
  );

  it('says when there is nothing, without a dot', async () => {
    const { user } = renderApp({ route: '/app/terms', world: signedInWorld() });
    const button = await bell('Notifications');
    expect(dotShown(button)).toBe(false);
    await user.click(button);
    const dropdown = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dropdown).getByText('No notifications yet.')).toBeVisible();
  });

  it(
    'stays quiet when the load fails, sends the heartbeat, and tries again at the next poll',
    async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const backend = new TestBackend();
      let failing = true;
      const { noticeStore } = renderApp({
        route: '/app/terms',
        world: signedInWorld({ unreadNotifications: 2 }),
        backend,
      }).services;
      backend.on('GET', '/rest/v1/announcements', () =>
        failing
          ? postgrestError(500, { message: 'boom' })
          : json([], { headers: { 'content-range': '0-0/0' } }),
      );

      const button = await bell('Notifications');
      // The heartbeat: the user's own profile id, through the global handler.
      const heartbeats = () =>
        backend
          .requestsTo('GET', '/rest/v1/profiles')
          .filter((request) => new URL(request.url).searchParams.get('select') === 'id');
      await waitFor(() => expect(heartbeats()).toHaveLength(1));
      expect(new URL(heartbeats()[0]!.url).searchParams.get('id')).toBe(`eq.${TEST_USER_ID}`);
      expect(dotShown(button)).toBe(false);
      // No notice: notification load errors are ignored silently (app-shell 8).
      expect(noticeStore.getState().notifications).toEqual([]);
      const loads = () => backend.requestsTo('GET', '/rest/v1/announcements').length;
      expect(loads()).toBe(1);

      failing = false;
      await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1_000));
      expect(loads()).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      await waitFor(() => expect(loads()).toBe(2));
      expect(await bell('Notifications, 2 unread')).toBeInTheDocument();
      // A good load sends none.
      expect(heartbeats()).toHaveLength(1);
    },
    SLOW,
  );
});
