import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { invitationKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

export interface PendingInvitation {
  id: string;
  source: 'organization' | 'team';
  /** The team's or the organization's name. */
  targetName: string;
  createdAt: string;
}

/**
 * Pending invitations addressed to the user. Inviters may read the ones they sent too, so the
 * address is compared here as the policy compares it (case-insensitively).
 */
export async function fetchPendingInvitations(
  supabase: PortalSupabase,
  email: string,
): Promise<PendingInvitation[]> {
  const rows = unwrap(
    await supabase
      .from('invitations')
      .select('id, email, source, created_at, team:teams(name), organization:organizations(name)')
      .eq('status', 'pending')
      .order('created_at', { ascending: false }),
  );
  const mine = email.toLowerCase();
  return rows
    .filter((row) => row.email.toLowerCase() === mine)
    .map((row) => ({
      id: row.id,
      source: row.source === 'team' ? 'team' : 'organization',
      targetName: row.team?.name ?? row.organization?.name ?? 'an organization',
      createdAt: row.created_at,
    }));
}

export function usePendingInvitationsQuery(email: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: invitationKeys.pending(userId ?? ''),
    queryFn: () => fetchPendingInvitations(supabase, email!),
    enabled: userId != null && !!email,
  });
}
