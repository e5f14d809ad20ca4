import { Anchor, Badge, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { FeedEntry } from './feed.ts';

const sentAt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatSentAt(iso: string): string {
  return sentAt.format(new Date(iso));
}

/**
 * One notification or announcement. Unread ones say so in words (badge) and in weight, not by
 * colour alone; `action` holds the row's own control (Mark read on the page).
 */
export function FeedEntryItem({
  entry,
  compact = false,
  action,
  onNavigate,
}: {
  entry: FeedEntry;
  compact?: boolean;
  action?: ReactNode;
  /** Called when the entry's own link is followed (the bell's popover closes). */
  onNavigate?: () => void;
}) {
  const titleId = `feed-entry-${entry.kind}-${entry.id}`;
  return (
    <Stack
      component="li"
      gap={4}
      py={compact ? 6 : 'sm'}
      aria-labelledby={titleId}
      data-unread={entry.unread || undefined}
      data-entry={`${entry.kind}-${entry.id}`}
      // Focus can be sent here when the row's own control goes away (marked read).
      tabIndex={-1}
    >
      <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
        <Group gap={6} wrap="wrap">
          {entry.unread && (
            <Badge size="xs" color="red.8" variant="filled">
              New
            </Badge>
          )}
          {entry.kind === 'announcement' && (
            <Badge size="xs" variant="light">
              Announcement
            </Badge>
          )}
          <Text id={titleId} size="sm" fw={entry.unread ? 700 : 500}>
            {entry.title}
            {entry.unread && <VisuallyHidden> (unread)</VisuallyHidden>}
          </Text>
        </Group>
        {action}
      </Group>
      {entry.body && (
        <Text size="sm" c="gray.7" lineClamp={compact ? 2 : undefined}>
          {entry.body}
        </Text>
      )}
      <Group gap="sm">
        <Text size="xs" c="gray.7" component="time" dateTime={entry.at}>
          {formatSentAt(entry.at)}
        </Text>
        {entry.link && (
          <Anchor size="xs" component={Link} to={entry.link.to} onClick={onNavigate}>
            {entry.link.label}
            <VisuallyHidden>: {entry.title}</VisuallyHidden>
          </Anchor>
        )}
        {entry.url && (
          <Anchor size="xs" href={entry.url} target="_blank" rel="noopener noreferrer">
            Read more<VisuallyHidden> about {entry.title} (opens in a new tab)</VisuallyHidden>
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}
