import { Anchor, Divider, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import type { RecentFeed } from '../../data/notifications-query.ts';
import { paths } from '../../routes/paths.ts';
import { FeedEntryItem } from './FeedEntryItem.tsx';

/** The bell's dropdown: the latest notifications and announcements, and the way to all. */
export function NotificationsMenu({
  feed,
  status,
  headingId,
  onNavigate,
}: {
  feed: RecentFeed | undefined;
  status: 'pending' | 'error' | 'success';
  headingId: string;
  onNavigate: () => void;
}) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h5" id={headingId}>
        Notifications
      </Title>
      <MenuBody feed={feed} status={status} onNavigate={onNavigate} />
      <Divider />
      <Anchor component={Link} to={paths.notifications} size="sm" onClick={onNavigate}>
        See all notifications
      </Anchor>
    </Stack>
  );
}

function MenuBody({
  feed,
  status,
  onNavigate,
}: {
  feed: RecentFeed | undefined;
  status: 'pending' | 'error' | 'success';
  onNavigate: () => void;
}) {
  if (status === 'pending') return <LoadingFrame label="Loading notifications…" minHeight={80} />;
  // A failed load stays quiet (no notice, app-shell 8); the list just says it has nothing now.
  if (status === 'error' || !feed) {
    return <Text size="sm">Notifications could not be loaded right now.</Text>;
  }
  if (feed.entries.length === 0) return <Text size="sm">No notifications yet.</Text>;
  return (
    <Stack
      component="ul"
      gap={0}
      m={0}
      p={0}
      style={{ listStyle: 'none', maxHeight: 360, overflowY: 'auto' }}
      aria-label="Latest notifications"
      // Scrollable, so keyboard users must be able to reach it to scroll it.
      tabIndex={0}
    >
      {feed.entries.map((entry) => (
        <FeedEntryItem
          key={`${entry.kind}-${entry.id}`}
          entry={entry}
          compact
          onNavigate={onNavigate}
        />
      ))}
    </Stack>
  );
}
