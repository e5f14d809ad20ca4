import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { subscriptionKeys } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

const SUBSCRIPTION_COLUMNS =
  'id, name, interval, currency, ends_at, trial_ends_at, period_starts_at, billing_status, updated_at, created_at, price:plan_prices(features)';

export type SubscriptionRow = Pick<
  Row<'subscriptions'>,
  | 'id'
  | 'name'
  | 'interval'
  | 'currency'
  | 'ends_at'
  | 'trial_ends_at'
  | 'period_starts_at'
  | 'billing_status'
  | 'updated_at'
  | 'created_at'
> & { price: { features: string[] } | null };

/** An account's plan subscriptions (type default), newest first. */
export async function fetchSubscriptions(
  supabase: PortalSupabase,
  accountId: string,
): Promise<SubscriptionRow[]> {
  return unwrap(
    await supabase
      .from('subscriptions')
      .select(SUBSCRIPTION_COLUMNS)
      .eq('account_id', accountId)
      .eq('type', 'default')
      .order('created_at', { ascending: false }),
  );
}

/** The query behind useSubscriptionsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function subscriptionsQuery(
  supabase: PortalSupabase,
  userId: string | null,
  accountId: string | null | undefined,
) {
  return queryOptions({
    queryKey: subscriptionKeys.list(userId ?? '', accountId ?? ''),
    queryFn: () => fetchSubscriptions(supabase, accountId!),
    enabled: userId != null && accountId != null,
  });
}

export function useSubscriptionsQuery(accountId: string | null | undefined) {
  return useQuery(subscriptionsQuery(useSupabase(), useUserId(), accountId));
}
