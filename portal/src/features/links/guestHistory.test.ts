import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearGuestHistory,
  GUEST_HISTORY_MAX_ENTRIES,
  GUEST_HISTORY_STORAGE_KEY,
  readGuestHistory,
  rememberGuestLink,
  useGuestHistory,
  type GuestLink,
} from './guestHistory.ts';

function guestLink(
  alias: string,
  createdAt = '2026-11-22T10:00:00.000Z',
  domain = 'shortlane.test',
): GuestLink {
  return {
    alias,
    domain,
    longUrl: `https://example.com/${alias}`,
    createdAt,
  };
}

beforeEach(() => {
  window.localStorage.clear();
});

describe('guest history', () => {
  it('is empty in a fresh browser', () => {
    expect(readGuestHistory()).toEqual([]);
  });

  it('keeps links newest first under its documented key', () => {
    rememberGuestLink(guestLink('first'));
    rememberGuestLink(guestLink('second'));
    expect(readGuestHistory().map((link) => link.alias)).toEqual(['second', 'first']);
    const stored: unknown = JSON.parse(window.localStorage.getItem(GUEST_HISTORY_STORAGE_KEY)!);
    expect(stored).toEqual([guestLink('second'), guestLink('first')]);
  });

  it('moves a link remembered again to the top instead of listing it twice', () => {
    rememberGuestLink(guestLink('a'));
    rememberGuestLink(guestLink('b'));
    rememberGuestLink(guestLink('a', '2026-11-22T11:00:00.000Z'));
    expect(readGuestHistory().map((link) => [link.alias, link.createdAt])).toEqual([
      ['a', '2026-11-22T11:00:00.000Z'],
      ['b', '2026-11-22T10:00:00.000Z'],
    ]);
  });

  it('tells links apart by domain and alias together', () => {
    rememberGuestLink(guestLink('same', undefined, 'one.test'));
    rememberGuestLink(guestLink('same', undefined, 'two.test'));
    expect(readGuestHistory().map((link) => link.domain)).toEqual(['two.test', 'one.test']);
  });

  it('drops the oldest links beyond the cap', () => {
    for (let index = 0; index < GUEST_HISTORY_MAX_ENTRIES + 3; index += 1) {
      rememberGuestLink(guestLink(`alias${index}`));
    }
    const history = readGuestHistory();
    expect(history).toHaveLength(GUEST_HISTORY_MAX_ENTRIES);
    expect(history[0]!.alias).toBe(`alias${GUEST_HISTORY_MAX_ENTRIES + 2}`);
    expect(history.at(-1)!.alias).toBe('alias3');
  });

  it('stores only the contract fields and refuses incomplete links', () => {
    rememberGuestLink({ ...guestLink('x'), extra: 'not kept' } as GuestLink);
    expect(Object.keys(readGuestHistory()[0]!).sort()).toEqual(
      ['alias', 'createdAt', 'domain', 'longUrl'].sort(),
    );
    expect(() => rememberGuestLink({ ...guestLink('y'), createdAt: 'yesterday' })).toThrow(
      TypeError,
    );
  });

  it('ignores malformed storage and malformed entries', () => {
    window.localStorage.setItem(GUEST_HISTORY_STORAGE_KEY, '{not json');
    expect(readGuestHistory()).toEqual([]);
    window.localStorage.setItem(
      GUEST_HISTORY_STORAGE_KEY,
      JSON.stringify([guestLink('ok'), { alias: 'half' }, 42, null]),
    );
    expect(readGuestHistory()).toEqual([guestLink('ok')]);
  });

  it('still reads entries stored with the short URL they had before it was built on show', () => {
    const older = { ...guestLink('older'), shortUrl: 'http://shortlane.test/older' };
    window.localStorage.setItem(GUEST_HISTORY_STORAGE_KEY, JSON.stringify([older]));
    expect(readGuestHistory().map((link) => link.alias)).toEqual(['older']);
  });

  it('clears everything', () => {
    rememberGuestLink(guestLink('gone'));
    clearGuestHistory();
    expect(readGuestHistory()).toEqual([]);
    expect(window.localStorage.getItem(GUEST_HISTORY_STORAGE_KEY)).toBeNull();
  });
});

describe('useGuestHistory', () => {
  it('re-renders when this tab remembers or clears a link', () => {
    const { result } = renderHook(() => useGuestHistory());
    expect(result.current).toEqual([]);
    act(() => rememberGuestLink(guestLink('here')));
    expect(result.current.map((link) => link.alias)).toEqual(['here']);
    act(() => clearGuestHistory());
    expect(result.current).toEqual([]);
  });

  it('re-renders when another tab changes the history', () => {
    const { result } = renderHook(() => useGuestHistory());
    act(() => {
      // Another tab writes storage directly; this tab only hears the storage event.
      const value = JSON.stringify([guestLink('elsewhere')]);
      window.localStorage.setItem(GUEST_HISTORY_STORAGE_KEY, value);
      window.dispatchEvent(
        new StorageEvent('storage', { key: GUEST_HISTORY_STORAGE_KEY, newValue: value }),
      );
    });
    expect(result.current.map((link) => link.alias)).toEqual(['elsewhere']);
  });

  it('keeps the same array between renders while nothing changed', () => {
    rememberGuestLink(guestLink('stable'));
    const { result, rerender } = renderHook(() => useGuestHistory());
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });
});
