import { impersonationOf } from './claims.ts';

/**
 * Swapping sessions around an impersonation. The staff member's own portal session (if any) is
 * kept aside in localStorage while they act as the user, and put back when they stop.
 *
 * The impersonation token belongs to no Auth session and cannot be refreshed: it is stored with
 * a refresh token that Auth will refuse, so supabase-js drops the session when the token
 * expires. It must never reach Auth's /logout: for a token without a session, Auth (as GoTrue)
 * ends every session of the user, i.e. the real user's own. See impersonationClient.ts.
 */

/** Stored in place of a refresh token: Auth answers "invalid refresh token" for it. */
export const IMPERSONATION_REFRESH_TOKEN = 'impersonation-cannot-refresh';

/** Where the staff member's own session waits meanwhile. */
export const SAVED_SESSION_KEY = 'shortlane.impersonation.savedSession';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** The part of supabase-js's auth client this needs. */
export interface SessionAuth {
  getSession(): Promise<{ data: { session: Tokens | null } }>;
  setSession(tokens: Tokens): Promise<{ error: { message: string } | null }>;
  /** Forgets the stored session in this browser (see impersonationClient.ts). */
  signOut(options: { scope: 'local' }): Promise<{ error: { message: string } | null }>;
}

export type StartOutcome = { ok: true } | { ok: false; message: string };

export const INVALID_LINK_MESSAGE = 'This impersonation link is invalid or has expired.';

export async function startImpersonation(
  auth: SessionAuth,
  storage: Storage,
  token: string | null,
  now: Date = new Date(),
): Promise<StartOutcome> {
  const impersonation = impersonationOf(token);
  if (!token || !impersonation || impersonation.expiresAt * 1000 <= now.getTime()) {
    return { ok: false, message: INVALID_LINK_MESSAGE };
  }
  const { data } = await auth.getSession();
  const current = data.session;
  // Impersonating someone else while impersonating keeps the first saved (own) session.
  if (current && !impersonationOf(current.access_token)) {
    storage.setItem(
      SAVED_SESSION_KEY,
      JSON.stringify({ access_token: current.access_token, refresh_token: current.refresh_token }),
    );
  }
  const { error } = await auth.setSession({
    access_token: token,
    refresh_token: IMPERSONATION_REFRESH_TOKEN,
  });
  return error ? { ok: false, message: error.message } : { ok: true };
}

export type StopOutcome =
  /** The staff member's own portal session is back. */
  | 'restored'
  /** There was none to restore (or it had ended): signed out of the user's account only. */
  | 'signed-out';

function savedSession(storage: Storage): Tokens | null {
  try {
    const saved = JSON.parse(storage.getItem(SAVED_SESSION_KEY) ?? 'null') as Tokens | null;
    return saved?.access_token && saved.refresh_token ? saved : null;
  } catch {
    return null;
  }
}

/**
 * Ends the impersonation in this browser: tells the server (`reportStop`, which records it in the
 * kiosk audit log; a failure there does not keep anyone in the user's account), forgets the
 * user's session, and restores the saved one.
 */
export async function stopImpersonation(
  auth: SessionAuth,
  storage: Storage,
  reportStop: () => Promise<void>,
): Promise<StopOutcome> {
  const { data } = await auth.getSession();
  if (data.session && impersonationOf(data.session.access_token)) {
    await reportStop().catch((error: unknown) =>
      console.error('Could not record the end of the impersonation', error),
    );
  }
  const saved = savedSession(storage);
  storage.removeItem(SAVED_SESSION_KEY);
  await auth.signOut({ scope: 'local' });
  if (!saved) return 'signed-out';
  const { error } = await auth.setSession(saved);
  return error ? 'signed-out' : 'restored';
}
