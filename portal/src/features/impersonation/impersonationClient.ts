import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

/**
 * The client the impersonation pages swap sessions with. It keeps the session where the
 * portal's own client does (the same storage key), so the portal finds the new session when the
 * page reloads, but it bypasses the portal's global response handler, and its sign-out never
 * reaches Auth: an impersonation token has no session, and Auth's /logout ends every session of
 * a user whose token has none, which would sign the real user out everywhere. Answering
 * /logout here lets supabase-js forget the session in this browser only.
 */
export function createImpersonationClient(env: SupabaseEnv, storageKey: string): SupabaseClient {
  const localOnlyLogout: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith('/auth/v1/logout')) {
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return fetch(input, init);
  };
  return createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: false, detectSessionInUrl: false, storageKey },
    global: { fetch: localOnlyLogout },
  });
}

/**
 * Where a client keeps its session. supabase-js holds the key on its auth client (protected in
 * its types, a plain property at run time); the portal leaves the choice to supabase-js.
 */
export function sessionStorageKey(client: SupabaseClient): string {
  const key = (client.auth as unknown as { storageKey?: unknown }).storageKey;
  if (typeof key !== 'string' || key === '') {
    throw new Error('The portal’s Supabase client keeps its session under no storage key.');
  }
  return key;
}
