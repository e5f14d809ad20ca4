import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { ApiError } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { apiTokenKeys } from './keys.ts';

/**
 * Revokes (deletes) a token; its next API call is refused. Like creating, it needs a recent
 * password: the 423 goes through the global confirm-password flow and is retried.
 */
export function useRevokeApiTokenMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (tokenId: string) => {
      // The RPC returns void: unwrap would take its empty answer for a missing one.
      const { error, status } = await supabase.rpc('revoke_api_token', { p_token_id: tokenId });
      if (error) throw new ApiError(error.message, status, error);
    },
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: apiTokenKeys.list(userId, accountId) }),
  });
}
