import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { mailingKeys } from './keys.ts';

/** Starts (true) or stops (false) product e-mails to the signed-in person. */
export function useSetMyMailingsMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (receive: boolean) =>
      unwrap(await supabase.rpc('set_my_mailings', { p_receive: receive })),
    onSuccess: (receive) => {
      if (userId != null) queryClient.setQueryData(mailingKeys.mine(userId), receive);
    },
  });
}
