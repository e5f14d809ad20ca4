import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { SupabaseEnv } from '@shortlane/shared/supabase-env.ts';

/**
 * The kiosk's Supabase client. Its session is stored under its own key so that a staff member
 * signed in to the kiosk and to the portal on the same origin keeps two separate sessions.
 *
 * It leaves tokens in the URL alone: recovery and invitation links land on /auth-callback with
 * `#access_token=…&type=recovery`, and ra-supabase's handleCallback must see them to send the
 * user to the set-password page. Had supabase-js consumed them first, the user would be signed in
 * without ever choosing a password.
 */
export function createSupabaseClient(env: SupabaseEnv): SupabaseClient {
  return createClient(env.supabaseUrl, env.supabaseAnonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl: false,
      storageKey: 'shortlane-kiosk-auth',
    },
  });
}
