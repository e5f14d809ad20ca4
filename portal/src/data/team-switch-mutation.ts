import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { refreshAppState } from './refresh.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/**
 * Team mode (app-shell 4): switching to a team, or back to the personal account, changes the
 * features and limits that apply, so the whole state is refreshed afterwards. A refused switch
 * says its own message ('Team required.', 'Unknown team.', 'Switching error.') or goes to the
 * team login (424), so the global status notice stays out of it (app-shell 5 and 8).
 */
export function useSwitchTeamMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (teamId: string | null) => {
      if (teamId == null) {
        const { error, status } = await supabase
          .rpc('leave_team_mode')
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1');
        if (error) unwrap({ data: null, error, status });
        return null;
      }
      return unwrap(
        await supabase
          .rpc('switch_team', { p_team_id: teamId })
          .setHeader(OWN_ERROR_NOTICE_HEADER, '1'),
      );
    },
    onSettled: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}
