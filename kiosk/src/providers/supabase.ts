import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/**
 * The kiosk's Supabase client. Its session is stored under its own key so that a staff member
 * signed in to the kiosk and to the portal on the same origin keeps two separate sessions.
 */
export function createSupabaseClient(env: SupabaseEnv): SupabaseClient {
  return createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: { persistSession: true, autoRefreshToken: true, storageKey: 'shortlane-kiosk-auth' },
  });
}
