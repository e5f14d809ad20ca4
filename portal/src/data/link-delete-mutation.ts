import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { invalidateLinkData } from './links-list-query.ts';
import { ApiError } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** Deletes a link: it stops working and leaves every list (the alias stays taken). */
export function useDeleteLinkMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (aliasId: string) => {
      // delete_link returns nothing, so unwrap (which wants data) does not apply.
      const { error, status } = await supabase.rpc('delete_link', { p_alias_id: aliasId });
      if (error) throw new ApiError(error.message, status, error);
    },
    onSuccess: () => (userId == null ? undefined : invalidateLinkData(queryClient, userId)),
  });
}
