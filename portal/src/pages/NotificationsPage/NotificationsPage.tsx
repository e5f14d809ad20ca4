import {
  Alert,
  Button,
  Container,
  Divider,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { Fragment, useRef, useState } from 'react';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  useMarkEverythingReadMutation,
  useMarkNotificationsReadMutation,
} from '../../data/notifications-mark-read-mutation.ts';
import { useFeedPagesQuery } from '../../data/notifications-page-query.ts';
import { useUnreadNotificationCountQuery } from '../../data/notifications-unread-query.ts';
import { FeedEntryItem } from '../../features/notifications/FeedEntryItem.tsx';
import type { FeedEntry } from '../../features/notifications/feed.ts';
import { useConfig, useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

function MarkReadButton({
  entry,
  onMarked,
}: {
  entry: FeedEntry;
  onMarked: (entry: FeedEntry) => void;
}) {
  const markRead = useMarkNotificationsReadMutation();
  const notify = useNotify();
  const mark = async () => {
    try {
      // Awaited rather than mutate's own onSuccess: the refreshed list can drop this button (the
      // row is read) before the mark settles, and an unmounted observer's callbacks never run.
      await markRead.mutateAsync([entry.id]);
    } catch {
      notify({
        message: `"${entry.title}" could not be marked read. Please try again.`,
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'error',
      });
      return;
    }
    onMarked(entry);
  };
  return (
    <Button
      size="compact-xs"
      variant="default"
      loading={markRead.isPending}
      aria-label={`Mark "${entry.title}" read`}
      onClick={() => void mark()}
    >
      Mark read
    </Button>
  );
}

/**
 * /app/notifications: the user's notifications and the published announcements, newest first,
 * a page at a time. A notification is marked read on its own; announcements share one last-read
 * time per user, so "Mark all read" is what reads them.
 */
export default function NotificationsPage() {
  const { productName } = useConfig();
  usePageTitle('Notifications', productName);
  const pages = useFeedPagesQuery();
  const unread = useUnreadNotificationCountQuery().data ?? 0;
  const markEverything = useMarkEverythingReadMutation();
  const notify = useNotify();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState('');

  // The Mark read button goes away with the unread state: focus stays on the row instead.
  const onMarked = (entry: FeedEntry) => {
    setSaid(`"${entry.title}" marked read.`);
    listRef.current
      ?.querySelector<HTMLElement>(`[data-entry="${entry.kind}-${entry.id}"]`)
      ?.focus();
  };
  const markAll = () =>
    markEverything.mutate(undefined, {
      onSuccess: () => {
        setSaid('All notifications marked read.');
        headingRef.current?.focus();
      },
      onError: () =>
        notify({
          message: 'Your notifications could not be marked read. Please try again.',
          durationMs: NOTICE_DURATION_MS.default,
          tone: 'error',
        }),
    });

  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <Container size="md" py="xl">
      <Group justify="space-between" align="center" mb="lg">
        <Title order={1} ref={headingRef} tabIndex={-1}>
          Notifications
        </Title>
        <Button
          variant="default"
          onClick={markAll}
          loading={markEverything.isPending}
          disabled={unread === 0 || pages.isPending}
        >
          Mark all read
        </Button>
      </Group>
      <VisuallyHidden role="status">{said}</VisuallyHidden>
      {pages.isPending ? (
        <PageLoader />
      ) : pages.isError ? (
        <Alert color="red" role="alert" title="Your notifications could not be loaded">
          <Text size="sm">{MESSAGES.somethingWentWrong}</Text>
          <Button mt="sm" size="xs" onClick={() => void pages.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : entries.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Text>You have no notifications yet.</Text>
          <Text size="sm" c="gray.7" mt={4}>
            Finished imports, billing news and our announcements will show up here.
          </Text>
        </Paper>
      ) : (
        <Paper withBorder px="lg" py="xs" radius="md" ref={listRef}>
          <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
            {entries.map((entry, index) => (
              <Fragment key={`${entry.kind}-${entry.id}`}>
                {index > 0 && <Divider component="li" aria-hidden="true" />}
                <FeedEntryItem
                  entry={entry}
                  action={
                    entry.kind === 'notification' && entry.unread ? (
                      <MarkReadButton entry={entry} onMarked={onMarked} />
                    ) : undefined
                  }
                />
              </Fragment>
            ))}
          </Stack>
        </Paper>
      )}
      {pages.hasNextPage && (
        <Group justify="center" mt="lg">
          <Button
            variant="default"
            loading={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
      {pages.isFetchNextPageError && (
        <Text role="alert" c="red.8" size="sm" ta="center" mt="sm">
          {MESSAGES.somethingWentWrong}
        </Text>
      )}
    </Container>
  );
}
