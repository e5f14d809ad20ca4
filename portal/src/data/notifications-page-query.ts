import { useInfiniteQuery } from '@tanstack/react-query';
import {
  announcementEntry,
  compareEntries,
  notificationEntry,
  type FeedEntry,
} from '../features/notifications/feed.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { notificationKeys } from './keys.ts';
import {
  ANNOUNCEMENT_COLUMNS,
  fetchLastReadAnnouncementsAt,
  stateLoadData,
  NOTIFICATION_COLUMNS,
  publishedOnly,
} from './notifications-query.ts';
import { useUserId } from './use-user-id.ts';

export const FEED_PAGE_SIZE = 20;

/** Where one source (notifications or announcements) stopped: its last shown row. */
interface SourceCursor {
  after: { at: string; id: string } | null;
  done: boolean;
}

/**
 * The page reads two tables newest first; each keeps its own cursor (time, then id, so rows
 * sharing a timestamp are neither skipped nor repeated across pages).
 */
export interface FeedCursor {
  notifications: SourceCursor;
  announcements: SourceCursor;
}

export interface FeedPage {
  entries: FeedEntry[];
  next: FeedCursor | null;
}

const FIRST_PAGE: FeedCursor = {
  notifications: { after: null, done: false },
  announcements: { after: null, done: false },
};

/** PostgREST's "older than (at, id)" in a descending (time, id) order. */
function olderThan(column: string, after: { at: string; id: string }): string {
  return `${column}.lt."${after.at}",and(${column}.eq."${after.at}",id.lt.${after.id})`;
}

async function fetchNotificationRows(supabase: PortalSupabase, cursor: SourceCursor) {
  if (cursor.done) return [];
  let query = supabase.from('notifications').select(NOTIFICATION_COLUMNS);
  if (cursor.after) query = query.or(olderThan('created_at', cursor.after));
  return stateLoadData(
    await query
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(FEED_PAGE_SIZE + 1),
  );
}

async function fetchAnnouncementRows(supabase: PortalSupabase, cursor: SourceCursor, now: number) {
  if (cursor.done) return [];
  let query = supabase
    .from('announcements')
    .select(ANNOUNCEMENT_COLUMNS)
    .lte('published_at', new Date(now).toISOString());
  if (cursor.after) query = query.or(olderThan('published_at', cursor.after));
  const rows = stateLoadData(
    await query
      .order('published_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(FEED_PAGE_SIZE + 1),
  );
  return publishedOnly(rows, now);
}

function advance(cursor: SourceCursor, fetched: number, shown: readonly FeedEntry[]): SourceCursor {
  if (cursor.done) return cursor;
  const last = shown.at(-1);
  return {
    after: last ? { at: last.at, id: last.id } : cursor.after,
    done: fetched <= FEED_PAGE_SIZE && shown.length === fetched,
  };
}

/** One page of the merged feed after `cursor`, and the cursor of the next (null at the end). */
export async function fetchFeedPage(
  supabase: PortalSupabase,
  userId: string,
  cursor: FeedCursor,
  now = Date.now(),
): Promise<FeedPage> {
  const [notifications, announcements, lastReadAt] = await Promise.all([
    fetchNotificationRows(supabase, cursor.notifications),
    fetchAnnouncementRows(supabase, cursor.announcements, now),
    fetchLastReadAnnouncementsAt(supabase, userId),
  ]);
  const entries = [
    ...notifications.map(notificationEntry),
    ...announcements.map((row) => announcementEntry(row, lastReadAt)),
  ]
    .sort(compareEntries)
    .slice(0, FEED_PAGE_SIZE);
  const next: FeedCursor = {
    notifications: advance(
      cursor.notifications,
      notifications.length,
      entries.filter((entry) => entry.kind === 'notification'),
    ),
    announcements: advance(
      cursor.announcements,
      announcements.length,
      entries.filter((entry) => entry.kind === 'announcement'),
    ),
  };
  return {
    entries,
    next: next.notifications.done && next.announcements.done ? null : next,
  };
}

/** The notifications page: the whole feed, newest first, a page at a time. */
export function useFeedPagesQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useInfiniteQuery({
    queryKey: notificationKeys.pages(userId ?? ''),
    queryFn: ({ pageParam }) => fetchFeedPage(supabase, userId!, pageParam),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (page) => page.next,
    enabled: userId != null,
  });
}
