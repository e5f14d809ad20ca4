import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { inviteByEmail } from '../invitations/invitation-mail.ts';
import { refreshAppState } from '../refresh.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import type { TeamRole } from './team-members-query.ts';

/** Void RPCs answer no body: only the error matters. */
function check(result: {
  error: { message: string; code?: string; details?: string | null; hint?: string | null } | null;
  status: number;
}) {
  if (result.error) unwrap({ data: null, error: result.error, status: result.status });
}

/** Membership changes refresh the team's lists and, as teams and roles move, the whole state. */
function useTeamMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: run,
    onSuccess: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}

export function useInviteTeamMemberMutation(teamId: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useTeamMutation((input: { email: string; role: TeamRole }) =>
    inviteByEmail(supabase, {
      email: input.email,
      inviterId: userId!,
      target: { kind: 'team', teamId, role: input.role },
    }),
  );
}

export function useWithdrawInvitationMutation() {
  const supabase = useSupabase();
  return useTeamMutation(async (invitationId: string) =>
    unwrap(
      await supabase.from('invitations').delete().eq('id', invitationId).select('id').single(),
    ),
  );
}

export function useChangeTeamMemberRoleMutation(teamId: string) {
  const supabase = useSupabase();
  return useTeamMutation(async (input: { userId: string; role: TeamRole }) =>
    unwrap(
      await supabase.rpc('change_team_member_role', {
        p_team_id: teamId,
        p_user_id: input.userId,
        p_role: input.role,
      }),
    ),
  );
}

export function useRemoveTeamMemberMutation(teamId: string) {
  const supabase = useSupabase();
  return useTeamMutation(async (memberId: string) =>
    check(await supabase.rpc('remove_team_member', { p_team_id: teamId, p_user_id: memberId })),
  );
}

export function useLeaveTeamMutation() {
  const supabase = useSupabase();
  return useTeamMutation(async (teamId: string) =>
    check(await supabase.rpc('leave_team', { p_team_id: teamId })),
  );
}

/** add_team_member: an organization person straight onto the team, with a role. */
export function useAddTeamMemberMutation(teamId: string) {
  const supabase = useSupabase();
  return useTeamMutation(async (input: { userId: string; role: TeamRole }) =>
    unwrap(
      await supabase.rpc('add_team_member', {
        p_team_id: teamId,
        p_user_id: input.userId,
        p_role: input.role,
      }),
    ),
  );
}
