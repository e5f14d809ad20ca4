import { ActionIcon, Indicator, Loader } from '@mantine/core';
import { lazy, useId, useState } from 'react';
import { BellIcon } from '../../components/icons.tsx';
import { LazyOnFirstUse } from '../../components/LazyOnFirstUse.tsx';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { PopoverOnFirstUse } from '../../components/PopoverOnFirstUse.tsx';
import { useMarkAnnouncementsReadMutation } from '../../data/notifications-mark-read-mutation.ts';
import { useRecentFeedQuery, type RecentFeed } from '../../data/notifications-query.ts';

// The list is fetched when the bell is first opened, not with the first page.
const NotificationsMenu = lazy(() =>
  import('./NotificationsMenu.tsx').then((module) => ({ default: module.NotificationsMenu })),
);

const hasUnreadAnnouncement = (feed: RecentFeed) =>
  feed.entries.some((entry) => entry.kind === 'announcement' && entry.unread);

export function bellLabel(status: 'pending' | 'error' | 'success', unread: number): string {
  if (status === 'pending') return 'Notifications, loading';
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/**
 * The bell: a dot when something is unread, a spinner while the feed first loads. It opens the
 * latest notifications and announcements; opening it counts as reading the announcements
 * (PUT user/last-read-announcements-at), though they keep their "New" mark while it stays open.
 */
export function NotificationBell() {
  const feed = useRecentFeedQuery();
  const markAnnouncementsRead = useMarkAnnouncementsReadMutation();
  const [opened, setOpened] = useState(false);
  // What the list showed when opened: marking announcements read must not strip their marks
  // from under the reader's eyes.
  const [snapshot, setSnapshot] = useState<RecentFeed | undefined>(undefined);
  const headingId = useId();
  const unread = feed.data?.unreadCount ?? 0;

  const open = () => {
    setOpened(true);
    setSnapshot(feed.data);
    if (feed.data && hasUnreadAnnouncement(feed.data)) markAnnouncementsRead.mutate();
  };
  const close = () => {
    setOpened(false);
    setSnapshot(undefined);
  };

  return (
    <PopoverOnFirstUse
      width={360}
      position="bottom-end"
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={opened}
      onChange={(next) => (next ? open() : close())}
      dropdownProps={{ 'aria-labelledby': headingId }}
      target={
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={bellLabel(feed.status, unread)}
        >
          {feed.isPending ? (
            <Loader size={16} aria-hidden="true" data-testid="notifications-spinner" />
          ) : (
            <Indicator
              disabled={unread === 0}
              color="red"
              size={9}
              offset={2}
              data-testid="unread-dot"
            >
              <BellIcon />
            </Indicator>
          )}
        </ActionIcon>
      }
    >
      <LazyOnFirstUse
        active={opened}
        fallback={<LoadingFrame label="Loading the notifications" minHeight={120} />}
      >
        <NotificationsMenu
          feed={snapshot ?? feed.data}
          status={feed.status}
          headingId={headingId}
          onNavigate={close}
        />
      </LazyOnFirstUse>
    </PopoverOnFirstUse>
  );
}
