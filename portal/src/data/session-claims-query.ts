import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { sessionKeys } from './keys.ts';
import { useUserId } from './use-user-id.ts';

/** The access token's claims the shell reads. */
export interface SessionClaims {
  aal: string | null;
  /**
   * The staff member acting as this user, when the session is an impersonation. The kiosk
   * issues such a session with an `impersonator` claim (the staff user's id).
   */
  impersonator: string | null;
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
    c.charCodeAt(0),
  );
  return new TextDecoder().decode(bytes);
}

/** Reads claims from a JWT without checking it: the server checks, the shell only displays. */
export function claimsOf(accessToken: string | null | undefined): SessionClaims {
  const payload = accessToken?.split('.')[1];
  if (!payload) return { aal: null, impersonator: null };
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as Record<string, unknown>;
    return {
      aal: typeof claims.aal === 'string' ? claims.aal : null,
      impersonator: typeof claims.impersonator === 'string' ? claims.impersonator : null,
    };
  } catch {
    return { aal: null, impersonator: null };
  }
}

export async function fetchSessionClaims(supabase: PortalSupabase): Promise<SessionClaims> {
  const { data } = await supabase.auth.getSession();
  return claimsOf(data.session?.access_token);
}

export function useSessionClaimsQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: sessionKeys.claims(userId ?? ''),
    queryFn: () => fetchSessionClaims(supabase),
    enabled: userId != null,
  });
}
