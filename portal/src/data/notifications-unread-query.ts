import { useRecentFeedQuery, type RecentFeed } from './notifications-query.ts';

const unreadCount = (feed: RecentFeed) => feed.unreadCount;

/** How many notifications and announcements are unread, from the bell's polled feed. */
export function useUnreadNotificationCountQuery() {
  return useRecentFeedQuery(unreadCount);
}
