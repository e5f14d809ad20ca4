/**
 * The notification feed as the portal shows it: the user's notifications and the published
 * announcements in one list, newest first. A notification is unread until marked read; an
 * announcement is unread when it was published after the user's last-read-announcements time
 * (the schema keeps one time per user, not a mark per announcement).
 */

export interface NotificationRow {
  id: string;
  title: string;
  body: string | null;
  read_at: string | null;
  created_at: string;
}

export interface AnnouncementRow {
  id: string;
  title: string;
  body: string;
  url: string | null;
  published_at: string;
}

export interface FeedEntry {
  kind: 'notification' | 'announcement';
  id: string;
  title: string;
  body: string | null;
  /** An announcement's "read more" address. */
  url: string | null;
  /** When it was sent (notification) or published (announcement), ISO. */
  at: string;
  unread: boolean;
}

/** True when an announcement published at `publishedAt` is newer than the last read time. */
export function isAnnouncementUnread(publishedAt: string, lastReadAt: string | null): boolean {
  return lastReadAt == null || Date.parse(publishedAt) > Date.parse(lastReadAt);
}

export function notificationEntry(row: NotificationRow): FeedEntry {
  return {
    kind: 'notification',
    id: row.id,
    title: row.title,
    body: row.body,
    url: null,
    at: row.created_at,
    unread: row.read_at == null,
  };
}

export function announcementEntry(row: AnnouncementRow, lastReadAt: string | null): FeedEntry {
  const at = row.published_at;
  return {
    kind: 'announcement',
    id: row.id,
    title: row.title,
    body: row.body,
    url: row.url,
    at,
    unread: isAnnouncementUnread(at, lastReadAt),
  };
}

const KIND_ORDER: Record<FeedEntry['kind'], number> = { notification: 0, announcement: 1 };

/** Newest first; at the same instant notifications come first, then by id, so order is stable. */
export function compareEntries(a: FeedEntry, b: FeedEntry): number {
  return (
    Date.parse(b.at) - Date.parse(a.at) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    b.id.localeCompare(a.id)
  );
}

export function mergeFeed(
  notifications: readonly NotificationRow[],
  announcements: readonly AnnouncementRow[],
  lastReadAt: string | null,
): FeedEntry[] {
  return [
    ...notifications.map(notificationEntry),
    ...announcements.map((row) => announcementEntry(row, lastReadAt)),
  ].sort(compareEntries);
}
