import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

/** Queues a `webhook.test` event for one endpoint; the log shows it as it is delivered. */
export function useSendTestWebhookMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (endpointId: string) =>
      unwrap(await supabase.rpc('send_test_webhook', { p_endpoint_id: endpointId })),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(userId, accountId) }),
  });
}
