import type { Database } from '@shortlane/shared/database.types.ts';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/** The portal's Supabase client, typed by the generated database types. */
export type PortalSupabase = SupabaseClient<Database>;

export interface SupabaseClientOptions {
  /** Every request goes through it: the global response handler. */
  fetch: typeof fetch;
  /** Off in tests, where no session may leak from one test into the next. */
  persistSession?: boolean;
  /** Where the session is kept; tests give each client its own. */
  storageKey?: string;
}

/** The session persists in localStorage and refreshes itself; tokens in a URL are picked up. */
export function createSupabaseClient(
  env: SupabaseEnv,
  { fetch, persistSession = true, storageKey }: SupabaseClientOptions,
): PortalSupabase {
  return createClient<Database>(env.supabaseUrl, env.supabaseAnonKey, {
    auth: {
      persistSession,
      autoRefreshToken: persistSession,
      detectSessionInUrl: persistSession,
      // An explicit undefined would replace supabase-js' default key (the session would be kept
      // under the key "undefined", where nothing else looks for it).
      ...(storageKey ? { storageKey } : {}),
    },
    global: { fetch },
  });
}
