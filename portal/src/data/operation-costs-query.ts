import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { operationCostKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';

/** What each costly operation costs in web credits, by operation name. */
export type OperationCosts = Readonly<Record<string, number>>;

export async function fetchOperationCosts(supabase: PortalSupabase): Promise<OperationCosts> {
  const rows = unwrap(await supabase.from('operation_costs').select('operation, credits'));
  return Object.fromEntries(rows.map((row) => [row.operation, row.credits]));
}

/** The query behind useOperationCostsQuery, also asked from the entry (state/prefetchAppState.ts). */
export function operationCostsQuery(supabase: PortalSupabase) {
  return queryOptions({
    queryKey: operationCostKeys.list(),
    queryFn: () => fetchOperationCosts(supabase),
    staleTime: 10 * 60_000,
  });
}

export function useOperationCostsQuery() {
  return useQuery(operationCostsQuery(useSupabase()));
}
