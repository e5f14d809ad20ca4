/**
 * The notification feed as the portal shows it: the user's notifications and the published
 * announcements in one list, newest first. A notification is unread until marked read; an
 * announcement is unread when it was published after the user's last-read-announcements time
 * (the schema keeps one time per user, not a mark per announcement).
 */

import { href } from '../../routes/paths.ts';

export interface NotificationRow {
  id: string;
  title: string;
  body: string | null;
  read_at: string | null;
  created_at: string;
  /** What it is about (`bulk_import.completed`…); older rows and tests may leave it out. */
  type?: string | null;
  /** What it refers to, by type (a bulk import's `job_id`). */
  data?: unknown;
}

/** A page of the portal a notification leads to: the details behind its sentence. */
export interface FeedLink {
  to: string;
  label: string;
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
  /** A notification's page in the portal. */
  link?: FeedLink | null;
  /** When it was sent (notification) or published (announcement), ISO. */
  at: string;
  unread: boolean;
}

/** True when an announcement published at `publishedAt` is newer than the last read time. */
export function isAnnouncementUnread(publishedAt: string, lastReadAt: string | null): boolean {
  return lastReadAt == null || Date.parse(publishedAt) > Date.parse(lastReadAt);
}

/** A bulk import's notification leads to its job page: counts, refused rows, result CSV. */
export function notificationLink(row: Pick<NotificationRow, 'type' | 'data'>): FeedLink | null {
  if (!row.type?.startsWith('bulk_import.')) return null;
  const jobId =
    typeof row.data === 'object' && row.data !== null && 'job_id' in row.data
      ? row.data.job_id
      : null;
  if (typeof jobId !== 'string' || jobId === '') return null;
  return { to: href('bulk.job', { jobId }), label: 'See the batch' };
}

export function notificationEntry(row: NotificationRow): FeedEntry {
  return {
    kind: 'notification',
    id: row.id,
    title: row.title,
    body: row.body,
    url: null,
    link: notificationLink(row),
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
