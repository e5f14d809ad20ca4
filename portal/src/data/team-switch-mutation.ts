import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { refreshAppState } from './refresh.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * Team mode (app-shell 4): switching to a team, or back to the personal account, changes the
 * features and limits that apply, so the whole state is refreshed afterwards.
 */
export function useSwitchTeamMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (teamId: string | null) => {
      if (teamId == null) {
        const { error, status } = await supabase.rpc('leave_team_mode');
        if (error) unwrap({ data: null, error, status });
        return null;
      }
      return unwrap(await supabase.rpc('switch_team', { p_team_id: teamId }));
    },
    onSettled: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}
