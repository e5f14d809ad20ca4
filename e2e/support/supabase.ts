import {
  createClient,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import ws from 'ws';

type RealtimeTransport = NonNullable<
  NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']
>;
// Node 20 has no global WebSocket, which supabase-js needs even unused. ws's constructor typing
// lists an `address: null` overload first, which realtime-js's interface rejects.
const nodeWebSocket = ws as unknown as RealtimeTransport;

/** A supabase-js client for test code running in Node: no stored session, no refresh timer. */
export function nodeSupabaseClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: nodeWebSocket },
  });
}
