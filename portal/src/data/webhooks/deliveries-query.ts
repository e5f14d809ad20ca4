import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';
import { unwrap, type Row } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';
import { webhookKeys } from './keys.ts';

export type WebhookAttemptRow = Pick<
  Row<'webhook_attempts'>,
  'id' | 'attempted_at' | 'succeeded' | 'response_status' | 'latency_ms' | 'error'
>;

export type WebhookDeliveryRow = Pick<
  Row<'webhook_deliveries'>,
  | 'id'
  | 'endpoint_id'
  | 'message_id'
  | 'event_type'
  | 'status'
  | 'attempts'
  | 'last_response_status'
  | 'created_at'
  | 'next_attempt_at'
> & { webhook_attempts: WebhookAttemptRow[] };

/** The last 50 deliveries of an account, newest first, each with its attempts. */
export async function fetchWebhookDeliveries(
  supabase: PortalSupabase,
  accountId: string,
): Promise<WebhookDeliveryRow[]> {
  return unwrap(
    await supabase
      .from('webhook_deliveries')
      .select(
        'id, endpoint_id, message_id, event_type, status, attempts, last_response_status, ' +
          'created_at, next_attempt_at, ' +
          'webhook_attempts (id, attempted_at, succeeded, response_status, latency_ms, error)',
      )
      .eq('account_id', accountId)
      .order('created_at', { ascending: false })
      .order('attempted_at', { referencedTable: 'webhook_attempts', ascending: false })
      .limit(50)
      .returns<WebhookDeliveryRow[]>(),
  );
}

/** Polled while deliveries are under way, so a test event shows up without a reload. */
export function useWebhookDeliveriesQuery(accountId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.deliveries(userId ?? '', accountId ?? ''),
    queryFn: () => fetchWebhookDeliveries(supabase, accountId!),
    enabled: userId != null && accountId != null,
    refetchInterval: (query) =>
      query.state.data?.some((row) => row.status === 'pending' || row.status === 'retrying')
        ? 2_000
        : false,
  });
}
