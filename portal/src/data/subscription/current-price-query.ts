import { useQuery } from '@tanstack/react-query';
import type { PlanPriceRow } from '../plans-query.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { subscriptionStateKeys } from './keys.ts';

/** The price the person's own account pays now, with its plan and whether both are still sold. */
export interface CurrentPrice {
  price: PlanPriceRow;
  plan: { name: string; active: boolean; hidden: boolean };
}

/**
 * The personal account's current price (the subscribers' policies let a person read the plan and
 * price they are on, sold or not); null without a paid plan.
 */
export function useCurrentPriceQuery(accountId: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...subscriptionStateKeys.all(userId ?? ''), 'current-price', accountId ?? ''],
    enabled: userId != null && accountId != null,
    queryFn: async (): Promise<CurrentPrice | null> => {
      const now = new Date().toISOString();
      const { data, error } = await supabase
        .from('subscriptions')
        .select(
          'price:plan_prices(id, interval, amount, currency, features, options, active, plan:plans(name, active, hidden))',
        )
        .eq('account_id', accountId!)
        .eq('type', 'default')
        .not('price_id', 'is', null)
        .or(`period_starts_at.is.null,period_starts_at.lte.${now}`)
        .or(`ends_at.is.null,ends_at.gt.${now}`)
        .order('created_at', { ascending: false })
        .limit(1);
      if (error) throw error;
      const price = data[0]?.price;
      if (!price?.plan) return null;
      const { plan, ...rest } = price;
      return { price: rest, plan };
    },
  });
}
