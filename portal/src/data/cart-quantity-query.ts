import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { cartKeys } from './keys.ts';
import { ApiError } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

/** How many domains are in the user's shopping cart (RLS shows only their own cart). */
export async function fetchCartQuantity(supabase: PortalSupabase): Promise<number> {
  const { count, error, status } = await supabase
    .from('cart_items')
    .select('id', { count: 'exact', head: true });
  if (error) throw new ApiError(error.message, status, error);
  return count ?? 0;
}

export function useCartQuantityQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: cartKeys.quantity(userId ?? ''),
    queryFn: () => fetchCartQuantity(supabase),
    enabled: userId != null,
  });
}
