import type { AnnouncementRow, NotificationRow } from '../../features/notifications/feed.ts';
import { json, tableRows, type Responder, type TestBackend } from '../../test/backend.ts';

/** The cursor filter the page sends: `(col.lt."T",and(col.eq."T",id.lt.ID))`. */
const OLDER_THAN = /^\((\w+)\.lt\."([^"]+)",and\(\1\.eq\."([^"]+)",id\.lt\.([^)]+)\)\)$/;

interface FeedRow {
  id: string;
  read_at?: string | null;
}

/**
 * Answers reads of one table as PostgREST would for the filters the feed sends (the cursor,
 * read_at=is.null, published_at=lte., limit) in (time, id) descending order.
 */
function feedTable<R extends FeedRow>(rows: () => R[], timeOf: (row: R) => string): Responder {
  return (request, url) => {
    const params = url.searchParams;
    const time = (row: R) => Date.parse(timeOf(row));
    let result = [...rows()].sort((a, b) => time(b) - time(a) || b.id.localeCompare(a.id));
    if (params.get('read_at') === 'is.null') result = result.filter((row) => row.read_at == null);
    const published = params.get('published_at');
    if (published?.startsWith('lte.')) {
      const limit = Date.parse(published.slice(4));
      result = result.filter((row) => time(row) <= limit);
    }
    const cursor = params.get('or')?.match(OLDER_THAN);
    if (cursor) {
      const [, , at, , id] = cursor;
      const instant = Date.parse(at!);
      result = result.filter(
        (row) => time(row) < instant || (time(row) === instant && row.id < id!),
      );
    }
    const limit = params.get('limit');
    if (limit) result = result.slice(0, Number(limit));
    return tableRows(result)(request, url);
  };
}

/** A feed held in memory, read and marked read as the database would. */
export function scriptFeed(
  backend: TestBackend,
  feed: { notifications: NotificationRow[]; announcements: AnnouncementRow[] },
): TestBackend {
  const notifications = feedTable(
    () => feed.notifications,
    (row) => row.created_at,
  );
  return backend
    .on('GET', '/rest/v1/notifications', notifications)
    .on('HEAD', '/rest/v1/notifications', notifications)
    .on(
      'GET',
      '/rest/v1/announcements',
      feedTable(
        () => feed.announcements,
        (row) => row.published_at,
      ),
    )
    .on('POST', '/rest/v1/rpc/mark_notifications_read', async (request) => {
      const { p_notification_ids: ids } = (await request.json()) as {
        p_notification_ids: string[];
      };
      let count = 0;
      feed.notifications = feed.notifications.map((row) => {
        if (!ids.includes(row.id) || row.read_at) return row;
        count += 1;
        return { ...row, read_at: '2026-11-22T12:00:00Z' };
      });
      return json(count);
    });
}

/** `count` notifications a minute apart, the newest at `newest`, unread unless said. */
export function notificationSeries(
  count: number,
  newest = Date.UTC(2026, 10, 21, 12),
  readAt: string | null = null,
): NotificationRow[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `n-${String(index + 1).padStart(2, '0')}`,
    title: `Notice ${index + 1}`,
    body: `Body ${index + 1}`,
    read_at: readAt,
    created_at: new Date(newest - index * 60_000).toISOString(),
  }));
}
