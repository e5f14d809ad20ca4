import { describe, expect, it } from 'vitest';
import { listOf } from './index.ts';

describe('the sandbox lists as Stripe does', () => {
  it('puts the newest first, also among objects made in the same second', () => {
    const made = [
      { id: 'evt_1', created: 100 },
      { id: 'evt_2', created: 101 },
      { id: 'evt_3', created: 101 },
      { id: 'evt_4', created: 101 },
    ];
    const list = listOf(made, '/v1/events', new URLSearchParams('limit=3')) as {
      data: { id: string }[];
      has_more: boolean;
    };
    expect(list.data.map((event) => event.id)).toEqual(['evt_4', 'evt_3', 'evt_2']);
    expect(list.has_more).toBe(true);
  });
});
