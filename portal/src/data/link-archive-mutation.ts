import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { invalidateLinkData } from './links-list-query.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** Archives a link, or restores an archived one (the active-link limit applies again). */
export function useArchiveLinkMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async ({ aliasId, archived }: { aliasId: string; archived: boolean }) =>
      unwrap(await supabase.rpc('archive_link', { p_alias_id: aliasId, p_archived: archived })),
    onSuccess: () => (userId == null ? undefined : invalidateLinkData(queryClient, userId)),
  });
}
