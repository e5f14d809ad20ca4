import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { affiliateLinkKeys } from './keys.ts';

/** Allows (true) or refuses (false, status flag 4) affiliate links on the person's links. */
export function useSetMyAffiliateLinksMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (allow: boolean) =>
      unwrap(await supabase.rpc('set_my_affiliate_links', { p_allow: allow })),
    onSuccess: (allow) => {
      if (userId != null) queryClient.setQueryData(affiliateLinkKeys.mine(userId), allow);
    },
  });
}
