import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';

/**
 * The spec's cross-tab login state (app-shell 4): each tab writes `stateStatus` when it signs in
 * or out, and the other tabs follow the change (a `storage` event fires in every other tab of
 * the origin, never in the one that wrote).
 */
export type StateStatusChange = 'signedIn' | 'signedOut';

type Writable = Pick<Storage, 'setItem'>;

export function announceSignedIn(storage: Writable): void {
  storage.setItem(STORAGE_KEYS.stateStatus, 'true');
}

export function announceSignedOut(storage: Writable): void {
  storage.setItem(STORAGE_KEYS.stateStatus, 'false');
}

/** What another tab announced, or null for any other storage change. */
export function stateStatusChange(
  event: Pick<StorageEvent, 'key' | 'newValue' | 'storageArea'>,
  storage: Storage,
): StateStatusChange | null {
  if (event.key !== STORAGE_KEYS.stateStatus || event.storageArea !== storage) return null;
  if (event.newValue === 'true') return 'signedIn';
  if (event.newValue === 'false') return 'signedOut';
  return null;
}
