import { useQuery, type QueryClient } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import {
  mergeFeed,
  type AnnouncementRow,
  type FeedEntry,
  type NotificationRow,
} from '../features/notifications/feed.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { notificationKeys } from './keys.ts';
import { sendHeartbeat } from './notifications-heartbeat.ts';
import { ApiError } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** How many of each the bell lists (the page pages through the rest). */
export const RECENT_FEED_SIZE = 10;

export const NOTIFICATION_COLUMNS = 'id, title, body, read_at, created_at, type, data';
export const ANNOUNCEMENT_COLUMNS = 'id, title, body, url, published_at';

/** notifications/recent: the latest notifications and announcements, and what is unread. */
export interface RecentFeed {
  entries: FeedEntry[];
  /** Unread notifications (all of them, not only the latest) plus unread announcements. */
  unreadCount: number;
  lastReadAnnouncementsAt: string | null;
}

interface Answer<Data> {
  data: Data | null;
  error: { message: string } | null;
  status: number;
}

/**
 * The data of a notifications or invitations load, or its error: 'Not authorized' for a refused
 * one, as the spec words it (app-shell 8). The notification poll shows neither.
 */
export function stateLoadData<Data>(answer: Answer<Data>): Data {
  if (answer.error || answer.data == null) {
    const refused = answer.status === 401 || answer.status === 403;
    throw new ApiError(
      refused ? MESSAGES.notAuthorized : (answer.error?.message ?? MESSAGES.somethingWentWrong),
      answer.status,
      answer.error,
    );
  }
  return answer.data;
}

/** Published announcements only: staff may read drafts and scheduled ones too. */
export function publishedOnly<Row extends { published_at: string | null }>(
  rows: readonly Row[],
  now: number,
): (Row & { published_at: string })[] {
  return rows.filter(
    (row): row is Row & { published_at: string } =>
      row.published_at != null && Date.parse(row.published_at) <= now,
  );
}

export async function fetchLastReadAnnouncementsAt(
  supabase: PortalSupabase,
  userId: string,
): Promise<string | null> {
  const profile = stateLoadData(
    await supabase
      .from('profiles')
      .select('last_read_announcements_at')
      .eq('id', userId)
      .single()
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
  );
  return profile.last_read_announcements_at ?? null;
}

export async function fetchRecentFeed(
  supabase: PortalSupabase,
  userId: string,
  now = Date.now(),
): Promise<RecentFeed> {
  // The spec: notification load errors are ignored silently, so none of these reaches the
  // global handler.
  const [notifications, unread, announcements, lastReadAt] = await Promise.all([
    supabase
      .from('notifications')
      .select(NOTIFICATION_COLUMNS)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(RECENT_FEED_SIZE)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
    supabase
      .from('notifications')
      .select('id', { count: 'exact', head: true })
      .is('read_at', null)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
    supabase
      .from('announcements')
      .select(ANNOUNCEMENT_COLUMNS)
      .lte('published_at', new Date(now).toISOString())
      .order('published_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(RECENT_FEED_SIZE)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
    fetchLastReadAnnouncementsAt(supabase, userId),
  ]);
  const notificationRows: NotificationRow[] = stateLoadData(notifications);
  const announcementRows: AnnouncementRow[] = publishedOnly(stateLoadData(announcements), now);
  if (unread.error) stateLoadData(unread);
  const entries = mergeFeed(notificationRows, announcementRows, lastReadAt);
  const unreadAnnouncements = entries.filter(
    (entry) => entry.kind === 'announcement' && entry.unread,
  ).length;
  return {
    entries,
    unreadCount: (unread.count ?? 0) + unreadAnnouncements,
    lastReadAnnouncementsAt: lastReadAt,
  };
}

/**
 * The bell's feed, polled every 120 000 ms (POLL_INTERVAL_MS). A failed load sends the
 * heartbeat and waits for the next poll: the poll is the retry, so TanStack's own is off.
 */
export function useRecentFeedQuery<Selected = RecentFeed>(select?: (feed: RecentFeed) => Selected) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: notificationKeys.recent(userId ?? ''),
    queryFn: async () => {
      try {
        return await fetchRecentFeed(supabase, userId!);
      } catch (error) {
        void sendHeartbeat(supabase, userId!);
        throw error;
      }
    },
    enabled: userId != null,
    refetchInterval: POLL_INTERVAL_MS,
    retry: false,
    select,
  });
}

/** Primes the bell's feed for a user who just signed in (app-shell 4: loaded on login). */
export function prefetchRecentFeed(
  queryClient: QueryClient,
  supabase: PortalSupabase,
  userId: string,
): Promise<void> {
  return queryClient.prefetchQuery({
    queryKey: notificationKeys.recent(userId),
    queryFn: () => fetchRecentFeed(supabase, userId),
  });
}
