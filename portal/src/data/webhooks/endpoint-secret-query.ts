import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

/** An endpoint's signing secret, fetched only when its owner asks to see it. */
export function useWebhookSecretQuery(endpointId: string, shown: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.secret(userId ?? '', endpointId),
    queryFn: async () =>
      unwrap(await supabase.rpc('webhook_endpoint_secret', { p_endpoint_id: endpointId })),
    enabled: userId != null && shown,
    staleTime: Infinity,
  });
}
