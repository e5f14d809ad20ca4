import type { SupabaseClient } from '@supabase/supabase-js';
import { announceSignedOut } from './stateStatus.ts';

/** Where a notice waits across the reload that follows an expired session. */
export const PENDING_NOTICE_KEY = 'shortlane.pendingNotice';

export interface SessionExpiryDeps {
  supabase: SupabaseClient;
  localStorage: Pick<Storage, 'setItem'>;
  sessionStorage: Pick<Storage, 'setItem'>;
  reload: () => void;
}

/**
 * A 401 for a signed-in user (app-shell 4): set the logged-out flag (other tabs follow it),
 * forget the dead session so the reloaded page starts as a guest instead of failing again, then
 * reload; the reloaded page says the session expired. Several requests failing together
 * reload once.
 */
export function createSessionExpiry(deps: SessionExpiryDeps): (message: string) => Promise<void> {
  let expiring: Promise<void> | null = null;
  return (message) => {
    expiring ??= (async () => {
      announceSignedOut(deps.localStorage);
      deps.sessionStorage.setItem(PENDING_NOTICE_KEY, message);
      await deps.supabase.auth.signOut({ scope: 'local' });
      deps.reload();
    })();
    return expiring;
  };
}

/** The notice left by `createSessionExpiry` before the reload, once. */
export function takePendingNotice(storage: Pick<Storage, 'getItem' | 'removeItem'>): string | null {
  const message = storage.getItem(PENDING_NOTICE_KEY);
  if (message != null) storage.removeItem(PENDING_NOTICE_KEY);
  return message;
}
