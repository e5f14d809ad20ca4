import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { callerOf } from './caller.ts';
import { requireEnv } from './env.ts';

// A function has no browser session to keep: every client lives for one request or one process.
const serverAuth = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

/**
 * A client that acts as the caller: their `Authorization` goes with every request, so RLS sees
 * them exactly as it would if the app had called the API directly.
 */
export function callerClient(request: Request): SupabaseClient {
  const { authorization } = callerOf(request);
  return createClient(requireEnv('SUPABASE_URL'), requireEnv('SUPABASE_ANON_KEY'), {
    auth: serverAuth,
    global: { headers: { Authorization: authorization } },
  });
}

/** The service-role client: bypasses RLS, so use it only after the function checked the rules. */
export function serviceClient(): SupabaseClient {
  return createClient(requireEnv('SUPABASE_URL'), requireEnv('SUPABASE_SERVICE_ROLE_KEY'), {
    auth: serverAuth,
  });
}
