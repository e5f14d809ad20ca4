import { describe, expect, it } from 'vitest';
import { isAnnouncementUnread, mergeFeed, notificationLink } from './feed.ts';

describe('announcements: unread against the last-read time', () => {
  it('is unread when never read, or published after the last read', () => {
    expect(isAnnouncementUnread('2026-11-20T10:00:00Z', null)).toBe(true);
    expect(isAnnouncementUnread('2026-11-20T10:00:01Z', '2026-11-20T10:00:00Z')).toBe(true);
    expect(isAnnouncementUnread('2026-11-20T09:59:59Z', '2026-11-20T10:00:00Z')).toBe(false);
  });
});

describe('mergeFeed', () => {
  it('lists notifications and announcements together, newest first, with their unread state', () => {
    const feed = mergeFeed(
      [
        {
          id: 'n-old',
          title: 'Old',
          body: null,
          read_at: '2026-11-19T00:00:00Z',
          created_at: '2026-11-18T00:00:00Z',
        },
        { id: 'n-new', title: 'New', body: 'b', read_at: null, created_at: '2026-11-21T00:00:00Z' },
      ],
      [
        { id: 'a-1', title: 'Seen', body: 'x', url: null, published_at: '2026-11-19T00:00:00Z' },
        {
          id: 'a-2',
          title: 'Fresh',
          body: 'y',
          url: 'https://example.com/news',
          published_at: '2026-11-20T12:00:00Z',
        },
      ],
      '2026-11-20T00:00:00Z',
    );
    expect(feed.map((entry) => [entry.kind, entry.id, entry.unread])).toEqual([
      ['notification', 'n-new', true],
      ['announcement', 'a-2', true],
      ['announcement', 'a-1', false],
      ['notification', 'n-old', false],
    ]);
    expect(feed[1]).toMatchObject({ url: 'https://example.com/news', at: '2026-11-20T12:00:00Z' });
  });

  it('keeps one order for entries of the same instant', () => {
    const at = '2026-11-20T00:00:00Z';
    const feed = mergeFeed(
      [
        { id: 'n-a', title: 'A', body: null, read_at: null, created_at: at },
        { id: 'n-b', title: 'B', body: null, read_at: null, created_at: at },
      ],
      [{ id: 'a-1', title: 'C', body: '', url: null, published_at: at }],
      null,
    );
    expect(feed.map((entry) => entry.id)).toEqual(['n-b', 'n-a', 'a-1']);
  });
});

describe('notificationLink', () => {
  const JOB = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';

  it("leads a bulk import's notification to its job page", () => {
    for (const type of ['bulk_import.completed', 'bulk_import.failed']) {
      expect(notificationLink({ type, data: { job_id: JOB, total: 3 } })).toEqual({
        to: `/app/bulk/${JOB}`,
        label: 'See the batch',
      });
    }
  });

  it('leads nowhere without a job, or for other notifications', () => {
    expect(notificationLink({ type: 'bulk_import.completed', data: {} })).toBeNull();
    expect(notificationLink({ type: 'bulk_import.completed', data: null })).toBeNull();
    expect(notificationLink({ type: 'team.invited', data: { job_id: JOB } })).toBeNull();
    expect(notificationLink({})).toBeNull();
  });
});
