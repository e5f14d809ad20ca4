import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

export type WebhookEndpointRow = Pick<
  Row<'webhook_endpoints'>,
  'id' | 'url' | 'description' | 'events' | 'enabled' | 'disabled_reason' | 'created_at'
>;

export async function fetchWebhookEndpoints(
  supabase: PortalSupabase,
  accountId: string,
): Promise<WebhookEndpointRow[]> {
  return unwrap(
    await supabase
      .from('webhook_endpoints')
      .select('id, url, description, events, enabled, disabled_reason, created_at')
      .eq('account_id', accountId)
      .order('created_at'),
  );
}

export function useWebhookEndpointsQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.endpoints(userId ?? '', accountId ?? ''),
    queryFn: () => fetchWebhookEndpoints(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}
