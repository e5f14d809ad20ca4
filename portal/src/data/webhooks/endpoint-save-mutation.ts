import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { saveOwnedRow } from '../save-owned-row.ts';
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
    mutationFn: ({ id, ...values }: WebhookEndpointInput & { id?: string }) =>
      saveOwnedRow(supabase, {
        table: 'webhook_endpoints',
        id,
        values,
        owner: { account_id: accountId },
        quiet: true,
      }),
    onSuccess: () =>
      userId == null
        ? undefined
        : queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(userId, accountId) }),
  });
}
