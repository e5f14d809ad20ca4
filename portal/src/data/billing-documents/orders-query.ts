import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { billingDocumentKeys } from './keys.ts';

export interface OrderItem {
  id: string;
  kind: string;
  description: string;
  quantity: number;
  amount: number;
}

export interface OrderRow {
  id: string;
  status: number;
  amount: number;
  currency: string | null;
  created_at: string;
  updated_at: string;
  order_items: OrderItem[];
}

const ORDER_COLUMNS =
  'id, status, amount, currency, created_at, updated_at, order_items (id, kind, description, quantity, amount)';

/** The account's orders with their items, newest first (RLS: billing managers and staff). */
export function useOrdersQuery(accountId: string | null | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: billingDocumentKeys.orders(userId ?? '', accountId ?? ''),
    enabled: userId != null && accountId != null,
    queryFn: async (): Promise<OrderRow[]> => {
      const { data, error } = await supabase
        .from('orders')
        .select(ORDER_COLUMNS)
        .eq('account_id', accountId!)
        .order('created_at', { ascending: false })
        .limit(100);
      if (error) throw error;
      return data;
    },
  });
}

/** One order by id, or null when it does not exist or is not the caller's to see. */
export function useOrderQuery(orderId: string | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  const valid = orderId != null && /^[0-9a-f-]{36}$/.test(orderId);
  return useQuery({
    queryKey: billingDocumentKeys.order(userId ?? '', orderId ?? ''),
    enabled: userId != null && orderId != null,
    queryFn: async (): Promise<OrderRow | null> => {
      if (!valid) return null;
      const { data, error } = await supabase
        .from('orders')
        .select(ORDER_COLUMNS)
        .eq('id', orderId)
        .maybeSingle();
      if (error) throw error;
      return data;
    },
  });
}
