import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

/** Sends a delivery again with the same `webhook-id` and body. */
export function useReplayWebhookDeliveryMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      unwrap(await supabase.rpc('replay_webhook_delivery', { p_delivery_id: deliveryId })),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(userId, accountId) }),
  });
}
