import { queryOptions, useQuery } from '@tanstack/react-query';
import { impersonationOf } from '../features/impersonation/claims.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { sessionKeys } from './keys.ts';
import { useUserId } from './use-user-id.ts';

/** What the shell reads from the session's access token. */
export interface SessionClaims {
  /** The staff member acting as this user, when the session is an impersonation. */
  impersonator: string | null;
}

export async function fetchSessionClaims(supabase: PortalSupabase): Promise<SessionClaims> {
  const { data } = await supabase.auth.getSession();
  return { impersonator: impersonationOf(data.session?.access_token)?.impersonator ?? null };
}

/** The query behind useSessionClaimsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function sessionClaimsQuery(supabase: PortalSupabase, userId: string | null) {
  return queryOptions({
    queryKey: sessionKeys.claims(userId ?? ''),
    queryFn: () => fetchSessionClaims(supabase),
    enabled: userId != null,
  });
}

export function useSessionClaimsQuery() {
  return useQuery(sessionClaimsQuery(useSupabase(), useUserId()));
}
