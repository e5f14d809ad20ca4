import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { billingDocumentKeys } from './keys.ts';

export interface BillingCustomer {
  billing_type: number;
  pm_type: string | null;
  pm_last_four: string | null;
  pm_expiration: string | null;
  pm_country: string | null;
  pm_synced_at: string | null;
  tax_id: string | null;
  tax_id_type: string | null;
  billing_address: Record<string, string> | null;
}

/**
 * The account's billing customer (its preferred provider's) with its card on file, or null. RLS
 * answers billing managers only; `pollUntilChangedFrom` re-reads every second until the card's
 * sync time differs from it (the webhook of a payment-method update has landed).
 */
export function useBillingCustomerQuery(
  accountId: string | null | undefined,
  pollUntilChangedFrom?: string | null,
) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: billingDocumentKeys.customer(userId ?? '', accountId ?? ''),
    enabled: userId != null && accountId != null,
    queryFn: async (): Promise<BillingCustomer | null> => {
      const { data, error } = await supabase
        .from('billing_customers')
        .select(
          'billing_type, pm_type, pm_last_four, pm_expiration, pm_country, pm_synced_at, tax_id, tax_id_type, billing_address',
        )
        .eq('account_id', accountId!)
        // The preferred provider's customer (Stripe's, or Paddle's for a Paddle account).
        .order('is_preferred', { ascending: false })
        .order('billing_type')
        .limit(1)
        .maybeSingle();
      if (error) throw error;
      return data as BillingCustomer | null;
    },
    refetchInterval: (query) =>
      pollUntilChangedFrom !== undefined &&
      (query.state.data?.pm_synced_at ?? null) === pollUntilChangedFrom
        ? 1_000
        : false,
  });
}
