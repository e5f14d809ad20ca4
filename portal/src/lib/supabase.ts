import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/** The portal's one Supabase client; the session persists in localStorage and refreshes itself. */
export function createSupabaseClient(env: SupabaseEnv): SupabaseClient {
  return createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
  });
}
