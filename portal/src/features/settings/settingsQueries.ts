import { hasUserStatusFlag } from '@shortlane/shared/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../../api/globalResponses.ts';
import { userScope } from '../../data/keys.ts';
import { unwrap } from '../../data/unwrap.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import type { PortalSupabase } from '../../lib/supabase.ts';

/** Keys of the settings area, inside the user's scope so a state refresh renews them. */
export const settingsKeys = {
  sidebarFacts: (userId: string, accountId: string) =>
    [...userScope(userId), 'settings', 'sidebar', accountId] as const,
};

/** What the billing sidebar needs beyond the shell's state (app-shell 2, "Billing sidebar"). */
export interface BillingFacts {
  hasOrders: boolean;
  ownsDomain: boolean;
  hideInvoices: boolean;
}

export async function fetchBillingFacts(
  supabase: PortalSupabase,
  userId: string,
  accountId: string,
): Promise<BillingFacts> {
  // Only entries of a sidebar hang on these: a failure hides them quietly, no notice.
  const [orders, domains, profile] = await Promise.all([
    supabase
      .from('orders')
      .select('id')
      .eq('account_id', accountId)
      .limit(1)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
    supabase
      .from('domains')
      .select('id')
      .eq('account_id', accountId)
      .eq('kind', 'branded')
      .eq('is_deleted', false)
      .limit(1)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
    supabase
      .from('profiles')
      .select('status')
      .eq('id', userId)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1')
      .single(),
  ]);
  return {
    hasOrders: unwrap(orders).length > 0,
    ownsDomain: unwrap(domains).length > 0,
    hideInvoices: hasUserStatusFlag(unwrap(profile).status, 'hideInvoices'),
  };
}

export function useBillingFactsQuery(userId: string | null, accountId: string | null) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: settingsKeys.sidebarFacts(userId ?? '', accountId ?? ''),
    queryFn: () => fetchBillingFacts(supabase, userId!, accountId!),
    enabled: userId != null && accountId != null,
  });
}
