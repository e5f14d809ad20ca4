import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { refreshAppState } from '../refresh.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

export function useUpdateTeamMutation(teamId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (input: { name: string; slug: string }) =>
      unwrap(
        await supabase.rpc('update_team', {
          p_team_id: teamId,
          p_name: input.name,
          p_slug: input.slug,
        }),
      ),
    onSuccess: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}

/** create_team: a standalone team (outside any organization); the creator is its admin. */
export function useCreateTeamMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (input: { name: string; slug: string }) =>
      unwrap(await supabase.rpc('create_team', { p_name: input.name, p_slug: input.slug })),
    onSuccess: () => (userId == null ? undefined : refreshAppState(queryClient, userId)),
  });
}
