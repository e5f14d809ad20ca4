import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Database } from '@shortlane/shared/database.types.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import { invalidateLinkData } from './links-list-query.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** update_link's arguments: a part left out is left alone. */
export type UpdateLinkArgs = Database['public']['Functions']['update_link']['Args'];

/** Renames a link, changes its destination (paid plans), tags, expiry or description. */
export function useUpdateLinkMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (args: UpdateLinkArgs) => unwrap(await supabase.rpc('update_link', args)),
    onSuccess: () => (userId == null ? undefined : invalidateLinkData(queryClient, userId)),
  });
}
