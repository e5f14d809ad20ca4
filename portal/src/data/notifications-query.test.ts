import { describe, expect, it } from 'vitest';
import { publishedOnly, stateLoadData } from './notifications-query.ts';
import { ApiError } from './unwrap.ts';

const failure = (status: number, message: string) => {
  try {
    stateLoadData({ data: null, error: { message }, status });
  } catch (error) {
    return error;
  }
  throw new Error('stateLoadData did not throw');
};

describe('stateLoadData', () => {
  it('gives the data of a good answer', () => {
    expect(stateLoadData({ data: [1, 2], error: null, status: 200 })).toEqual([1, 2]);
  });

  it("calls a refused load 'Not authorized' (app-shell 8), keeping the status", () => {
    for (const status of [401, 403]) {
      const error = failure(status, 'permission denied for table notifications');
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ message: 'Not authorized', status });
    }
  });

  it("keeps other errors' own message", () => {
    expect(failure(500, 'boom')).toMatchObject({ message: 'boom', status: 500 });
  });
});

describe('publishedOnly', () => {
  it('keeps announcements published by now: not drafts, not scheduled ones', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const rows = [
      { id: 'past', published_at: '2026-11-22T11:59:59Z' },
      { id: 'draft', published_at: null },
      { id: 'scheduled', published_at: '2026-11-22T12:00:01Z' },
      { id: 'now', published_at: '2026-11-22T12:00:00Z' },
    ];
    expect(publishedOnly(rows, now).map((row) => row.id)).toEqual(['past', 'now']);
  });
});
