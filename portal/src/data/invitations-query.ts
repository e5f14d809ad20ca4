import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { invitationKeys } from './keys.ts';
import { stateLoadData } from './notifications-query.ts';
import { useUserId } from './use-user-id.ts';

/** An invitation as the popover shows it (link-creation 3: Invitation). */
export interface PendingInvitation {
  id: string;
  source: 'organization' | 'team';
  organization: { name: string; slug: string; photoUrl: string | null } | null;
  team: { name: string; slug: string } | null;
  inviterName: string | null;
  /** The organization role's name, or the team role (admin, member, viewer). */
  role: string | null;
  message: string | null;
  updatedAt: string;
}

const INVITATION_COLUMNS = `id, email, source, team_role, message, updated_at,
  team:teams(name, slug),
  organization:organizations(name, slug, photo_url),
  organization_role:organization_roles(name),
  inviter:profiles!invitations_inviter_id_fkey(name)`;

/**
 * Pending invitations addressed to the user, newest first. Inviters may read the ones they sent
 * too, so the address is compared here as the policy compares it (case-insensitively).
 */
export async function fetchPendingInvitations(
  supabase: PortalSupabase,
  email: string,
): Promise<PendingInvitation[]> {
  const rows = stateLoadData(
    await supabase
      .from('invitations')
      .select(INVITATION_COLUMNS)
      .eq('status', 'pending')
      .order('updated_at', { ascending: false }),
  );
  const mine = email.toLowerCase();
  return rows
    .filter((row) => row.email.toLowerCase() === mine)
    .map((row) => ({
      id: row.id,
      source: row.source === 'team' ? 'team' : 'organization',
      organization: row.organization
        ? {
            name: row.organization.name,
            slug: row.organization.slug,
            photoUrl: row.organization.photo_url ?? null,
          }
        : null,
      team: row.team ? { name: row.team.name, slug: row.team.slug } : null,
      inviterName: row.inviter?.name ?? null,
      role: row.organization_role?.name ?? row.team_role ?? null,
      message: row.message ?? null,
      updatedAt: row.updated_at,
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

/** Takes an answered invitation out of the cached list at once (the refresh follows). */
export function forgetInvitation(queryClient: QueryClient, userId: string, id: string): void {
  queryClient.setQueryData<PendingInvitation[]>(invitationKeys.pending(userId), (list) =>
    list?.filter((invitation) => invitation.id !== id),
  );
}
