import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

/** Replaces an endpoint's signing secret; the new one is shown at once. */
export function useRotateWebhookSecretMutation() {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (endpointId: string) =>
      unwrap(await supabase.rpc('rotate_webhook_secret', { p_endpoint_id: endpointId })),
    onSuccess: (secret, endpointId) => {
      if (userId != null) queryClient.setQueryData(webhookKeys.secret(userId, endpointId), secret);
    },
  });
}
