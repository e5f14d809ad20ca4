import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { unwrap } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys, type WebhookEvent } from './keys.ts';

export interface WebhookEndpointInput {
  url: string;
  description: string | null;
  events: WebhookEvent[];
  enabled: boolean;
}

/**
 * Adds an endpoint (no id) or changes one. The page shows a refused URL (422: the destination
 * rule) on the field itself, so the global error handling is off for it.
 */
export function useSaveWebhookEndpointMutation(accountId: string) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async ({ id, ...input }: WebhookEndpointInput & { id?: string }) => {
      const table = supabase.from('webhook_endpoints');
      const query = id
        ? table.update(input).eq('id', id)
        : table.insert({ ...input, account_id: accountId });
      return unwrap(await query.select('id').single().setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'));
    },
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(userId, accountId) }),
  });
}
