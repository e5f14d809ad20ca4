import { useQuery } from '@tanstack/react-query';
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

export function useOperationCostsQuery() {
  const supabase = useSupabase();
  return useQuery({
    queryKey: operationCostKeys.list(),
    queryFn: () => fetchOperationCosts(supabase),
    staleTime: 10 * 60_000,
  });
}
