import type { PortalSupabase } from '../lib/supabase.ts';

/**
 * The spec's heartbeat, "used when a notification load fails" (app-shell 7): a one-row question
 * that goes through the global response handler, unlike the silent notification load. A dead
 * session answers 401 and the handler's session-expired flow takes over; a live one answers 200
 * and the next poll tries the notifications again. Its own outcome is not awaited by anyone.
 */
export async function sendHeartbeat(supabase: PortalSupabase, userId: string): Promise<void> {
  try {
    // A GET, not a HEAD: a refusal must carry its JSON body, or the handler would take it for
    // a non-JSON answer (the error modal) instead of an expired session.
    await supabase.from('profiles').select('id').eq('id', userId).limit(1);
  } catch {
    // A network failure: the global handler has nothing to say and neither has the poll.
  }
}
