import { readSupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * The client the impersonation pages swap sessions with: same project, same (default) session
 * storage as the portal's own client, so the portal finds the new session when the page reloads.
 *
 * Its signOut never reaches Auth: an impersonation token has no session, and Auth's /logout
 * ends every session of a user whose token has none, which would sign the real user out
 * everywhere. Answering /logout here lets supabase-js forget the session in this browser only.
 */
export function createImpersonationClient(
  source: Record<string, unknown> = import.meta.env,
): SupabaseClient {
  const check = readSupabaseEnv(source);
  if (!check.ok) throw new Error(check.problems.join(' '));
  const localOnlyLogout: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith('/auth/v1/logout')) {
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return fetch(input, init);
  };
  return createClient(check.env.supabaseUrl, check.env.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: localOnlyLogout },
  });
}

/** The kiosk, where a staff member without a portal session of their own goes back to. */
export function kioskUrl(source: Record<string, unknown> = import.meta.env): string | null {
  const raw = source.VITE_KIOSK_URL;
  return typeof raw === 'string' && /^https?:\/\/\S+$/.test(raw.trim()) ? raw.trim() : null;
}
