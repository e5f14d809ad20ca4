import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { ApiError } from '../unwrap.ts';
import { webhookKeys } from './keys.ts';

/** Deletes an endpoint with its deliveries and their log. */
export function useDeleteWebhookEndpointMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (endpointId: string) => {
      const { error, status } = await supabase
        .from('webhook_endpoints')
        .delete()
        .eq('id', endpointId);
      if (error) throw new ApiError(error.message, status, error);
    },
    // The endpoint's deliveries go with it.
    onSuccess: async () => {
      if (userId == null) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(userId, accountId) }),
        queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(userId, accountId) }),
      ]);
    },
  });
}
