import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { planKeys } from './keys.ts';
import { unwrap, type Row } from './unwrap.ts';

const PLAN_COLUMNS =
  'id, name, group, slide, popular, trial_days, trial_available, prices:plan_prices(id, interval, amount, currency, features, options, active)';

export type PlanPriceRow = Pick<
  Row<'plan_prices'>,
  'id' | 'interval' | 'amount' | 'currency' | 'features' | 'options' | 'active'
>;

export type PlanRow = Pick<
  Row<'plans'>,
  'id' | 'name' | 'group' | 'slide' | 'popular' | 'trial_days' | 'trial_available'
> & { prices: PlanPriceRow[] };

/** The public plans (active, not hidden) with their prices, in slide order. */
export async function fetchPlans(supabase: PortalSupabase): Promise<PlanRow[]> {
  const plans = unwrap(
    await supabase
      .from('plans')
      .select(PLAN_COLUMNS)
      .eq('active', true)
      .eq('hidden', false)
      .order('slide', { ascending: true, nullsFirst: false }),
  );
  return plans.map((plan) => ({ ...plan, prices: plan.prices.filter((price) => price.active) }));
}

/**
 * The query behind usePlansQuery, also asked from the entry (state/prefetchAppState.ts). Plans
 * change rarely: kept for ten minutes.
 */
export function plansQuery(supabase: PortalSupabase) {
  return queryOptions({
    queryKey: planKeys.list(),
    queryFn: () => fetchPlans(supabase),
    staleTime: 10 * 60_000,
  });
}

export function usePlansQuery() {
  return useQuery(plansQuery(useSupabase()));
}
