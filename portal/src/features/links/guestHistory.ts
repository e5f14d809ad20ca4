import { useSyncExternalStore } from 'react';

/**
 * The links a guest made in this browser ("My URLs" for guests). Guests have no account, so the
 * browser is the only place that remembers them.
 *
 * Local storage key: `guestLinkHistory`, a JSON array of {@link GuestLink}, newest first.
 * Entries that do not have the expected shape (an older format, a hand edit) are dropped on read.
 * No short URL is stored: it is built when shown (useShortUrl), so entries stay right when the
 * place short domains are served from changes (another stack port, production).
 */
export const GUEST_HISTORY_STORAGE_KEY = 'guestLinkHistory';

/** Keeps storage bounded; the oldest links fall off first. */
export const GUEST_HISTORY_MAX_ENTRIES = 100;

export interface GuestLink {
  alias: string;
  domain: string;
  longUrl: string;
  /** ISO timestamp. */
  createdAt: string;
}

const EMPTY: GuestLink[] = [];

function isGuestLink(value: unknown): value is GuestLink {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.alias === 'string' &&
    typeof entry.domain === 'string' &&
    typeof entry.longUrl === 'string' &&
    typeof entry.createdAt === 'string' &&
    !Number.isNaN(Date.parse(entry.createdAt))
  );
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be switched off by the browser (privacy modes); history then simply stays empty.
    return null;
  }
}

function parse(raw: string | null): GuestLink[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isGuestLink) : EMPTY;
  } catch {
    return EMPTY;
  }
}

// useSyncExternalStore needs a stable snapshot per stored value, so parse once per raw string.
let cachedRaw: string | null = null;
let cachedLinks: GuestLink[] = EMPTY;

/** The remembered links, newest first. */
export function readGuestHistory(): GuestLink[] {
  const raw = storage()?.getItem(GUEST_HISTORY_STORAGE_KEY) ?? null;
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedLinks = parse(raw);
  }
  return cachedLinks;
}

const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

function write(links: GuestLink[]) {
  const store = storage();
  if (!store) return;
  try {
    if (links.length === 0) store.removeItem(GUEST_HISTORY_STORAGE_KEY);
    else store.setItem(GUEST_HISTORY_STORAGE_KEY, JSON.stringify(links));
  } catch {
    // A full quota must not break link creation; the history is a convenience.
    return;
  }
  notify();
}

/** Adds a link at the top; a link already remembered (same domain and alias) moves to the top. */
export function rememberGuestLink(link: GuestLink): void {
  if (!isGuestLink(link)) throw new TypeError('rememberGuestLink: not a complete GuestLink');
  const others = readGuestHistory().filter(
    (entry) => entry.domain !== link.domain || entry.alias !== link.alias,
  );
  const { alias, domain, longUrl, createdAt } = link;
  write([{ alias, domain, longUrl, createdAt }, ...others].slice(0, GUEST_HISTORY_MAX_ENTRIES));
}

export function clearGuestHistory(): void {
  write(EMPTY);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed storage (or cleared all of it: key null).
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === GUEST_HISTORY_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The remembered links, newest first; re-renders when they change here or in another tab. */
export function useGuestHistory(): GuestLink[] {
  return useSyncExternalStore(subscribe, readGuestHistory, () => EMPTY);
}
