import { TEAM_ROLES, type TeamRole } from '@shortlane/shared/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { teamKeys } from '../keys.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

export type { TeamRole };

export interface TeamMember {
  userId: string;
  name: string;
  email: string;
  role: TeamRole;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: TeamRole;
  createdAt: string;
}

const asRole = (role: string | null): TeamRole =>
  (TEAM_ROLES as readonly string[]).includes(role ?? '') ? (role as TeamRole) : 'viewer';

export async function fetchTeamMembers(
  supabase: PortalSupabase,
  teamId: string,
): Promise<TeamMember[]> {
  const rows = unwrap(
    await supabase
      .from('team_members')
      .select('user_id, role, profile:profiles(name, email)')
      .eq('team_id', teamId)
      .order('created_at'),
  );
  return rows.map((row) => ({
    userId: row.user_id,
    name: row.profile?.name || row.profile?.email.split('@')[0] || '',
    email: row.profile?.email ?? '',
    role: asRole(row.role),
  }));
}

/** Pending invitations to the team (readable by whoever manages its members). */
export async function fetchTeamInvitations(
  supabase: PortalSupabase,
  teamId: string,
): Promise<PendingInvitation[]> {
  const rows = unwrap(
    await supabase
      .from('invitations')
      .select('id, email, team_role, created_at')
      .eq('team_id', teamId)
      .eq('status', 'pending')
      .order('created_at'),
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: asRole(row.team_role),
    createdAt: row.created_at,
  }));
}

export function useTeamMembersQuery(teamId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamKeys.members(userId ?? '', teamId ?? ''),
    queryFn: () => fetchTeamMembers(supabase, teamId!),
    enabled: userId != null && teamId != null,
  });
}

export function useTeamInvitationsQuery(teamId: string | null, enabled: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: teamKeys.invitations(userId ?? '', teamId ?? ''),
    queryFn: () => fetchTeamInvitations(supabase, teamId!),
    enabled: enabled && userId != null && teamId != null,
  });
}
