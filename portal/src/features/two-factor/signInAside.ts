import type { Database } from '@shortlane/shared/database.types.ts';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';
import { createClient, type AuthError, type Session } from '@supabase/supabase-js';
import type { PortalSupabase } from '../../lib/supabase.ts';

/**
 * A password sign-in on a second, memory-only client: it proves the user knows their password
 * without touching the portal's session, which would otherwise drop from aal2 to aal1 (and the
 * guards would ask for the second factor again mid-page).
 */
export interface AsideSignIn {
  client: PortalSupabase;
  session: Session;
}

let asideClients = 0;

export async function signInAside(
  env: SupabaseEnv,
  email: string,
  password: string,
  /** The portal's fetch (Auth calls pass its global handler untouched; tests answer them). */
  fetchImpl: typeof fetch,
): Promise<AsideSignIn | AuthError> {
  const client = createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
    auth: {
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storageKey: `sb-aside-${++asideClients}`,
    },
    global: { fetch: fetchImpl },
  });
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error) return error;
  return { client, session: data.session };
}

/** Ends the aside session on the server (only that one). */
export async function endAside(aside: AsideSignIn): Promise<void> {
  await aside.client.auth.signOut({ scope: 'local' });
}
