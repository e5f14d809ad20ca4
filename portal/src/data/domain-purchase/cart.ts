import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSupabase } from '../../lib/servicesContext.ts';
import { cartKeys } from '../keys.ts';
import { ApiError } from '../unwrap.ts';
import { useUserId } from '../use-user-id.ts';

/**
 * The domain cart (app-shell "Purchase and cart"): read through public.shopping_cart(), which
 * prices every line in the database (never here), and written as cart_items rows under RLS (the
 * price trigger refuses an extension we do not sell).
 */

export type DomainStatus = 'unknown' | 'available' | 'taken' | 'invalid' | 'in cart';

export interface SearchResult {
  domain: string;
  tld: string;
  status: DomainStatus;
  yearly_amount: number;
  first_year_amount: number;
  currency: string;
}

export interface CartItem {
  id: string;
  domain: string;
  years: number;
  yearly_amount: number;
  discount: number;
  amount: number;
  currency: string;
}

export interface Cart {
  items: CartItem[];
  total: number;
  currency: string;
  discounts_left: number;
}

/** A refused function call as an Error carrying the function's own message. */
async function functionError(error: unknown): Promise<Error> {
  const response = (error as { context?: unknown }).context;
  if (response instanceof Response) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { message?: unknown } | null;
    if (typeof body?.message === 'string') return new Error(body.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function useDomainSearchQuery(name: string) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: cartKeys.search(userId ?? '', name),
    enabled: userId != null && name !== '',
    queryFn: async () => {
      const { data, error } = await supabase.functions.invoke<{
        name: string;
        results: SearchResult[];
      }>(`domain-purchase/search?name=${encodeURIComponent(name)}`, { method: 'GET' });
      if (error) throw await functionError(error);
      return data!;
    },
  });
}

export function useCartQuery() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: cartKeys.contents(userId ?? ''),
    enabled: userId != null,
    queryFn: async (): Promise<Cart> => {
      const { data, error, status } = await supabase.rpc('shopping_cart');
      if (error) throw new ApiError(error.message, status, error);
      return data as unknown as Cart;
    },
  });
}

function useCartChange<T>(change: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: change,
    // The quantity in the navigation bar, the cart and the searches' "in cart" all change.
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKeys.all(userId ?? '') }),
  });
}

export function useAddToCartMutation() {
  const supabase = useSupabase();
  const userId = useUserId();
  return useCartChange(async (domain: string) => {
    const cart = await supabase
      .from('shopping_carts')
      .upsert({ user_id: userId! }, { onConflict: 'user_id', ignoreDuplicates: true });
    if (cart.error) throw new ApiError(cart.error.message, cart.status, cart.error);
    const {
      data: row,
      error: readError,
      status: readStatus,
    } = await supabase.from('shopping_carts').select('id').eq('user_id', userId!).single();
    if (readError) throw new ApiError(readError.message, readStatus, readError);
    const { error, status } = await supabase
      .from('cart_items')
      // The price trigger sets amount and currency from tld_prices: this currency is replaced.
      .upsert(
        { cart_id: row.id, domain, currency: 'USD' },
        { onConflict: 'cart_id,domain', ignoreDuplicates: true },
      );
    if (error) throw new ApiError(error.details || error.message, status, error);
  });
}

export function useRemoveFromCartMutation() {
  const supabase = useSupabase();
  return useCartChange(async (id: string) => {
    const { error, status } = await supabase.from('cart_items').delete().eq('id', id);
    if (error) throw new ApiError(error.message, status, error);
  });
}

export function useCartYearsMutation() {
  const supabase = useSupabase();
  return useCartChange(async ({ id, years }: { id: string; years: number }) => {
    const { error, status } = await supabase.from('cart_items').update({ years }).eq('id', id);
    if (error) throw new ApiError(error.message, status, error);
  });
}

export interface DomainCheckout {
  order_id: string;
  checkout: { transaction_id: string; payment_url: string };
}

export function useDomainCheckoutMutation() {
  const supabase = useSupabase();
  return useMutation({
    /** billing_type: 1 (Stripe's page, the default) or 2 (Paddle's overlay at /paddle/payment). */
    mutationFn: async (input: { purchase_source?: string; billing_type?: 1 | 2 }) => {
      const { data, error } = await supabase.functions.invoke<DomainCheckout>(
        'domain-purchase/checkout',
        { method: 'POST', body: { billing_type: 1, ...input } },
      );
      if (error) throw await functionError(error);
      return data!;
    },
  });
}

export interface PurchasedDomain {
  id: string;
  domain: string;
  years: number;
  status: string;
  problem: string | null;
  expires_at: string | null;
  domain_id: string | null;
  /** Owed back for a paid name that was not registered; refunded_at once it is. */
  refund_amount: number | null;
  refunded_at: string | null;
}

export interface DomainOrder {
  id: string;
  status: number;
  amount: number;
  currency: string | null;
  purchase_source: string | null;
  purchased_domains: PurchasedDomain[];
}

/** How often the success page looks at the order while the registrar works. */
export const ORDER_POLL_MS = 1_000;

/** A refund still due (the order may be final already) keeps the page following it. */
export const refundPending = (name: Pick<PurchasedDomain, 'refund_amount' | 'refunded_at'>) =>
  (name.refund_amount ?? 0) > 0 && name.refunded_at == null;

export const isSettled = (order: DomainOrder | null) =>
  order != null &&
  [48, 49, 50, 51, 18].includes(order.status) &&
  !order.purchased_domains.some(refundPending);

/** The order a checkout session paid for (RLS: the buyer, billing managers and staff). */
export function useDomainOrderQuery(sessionId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: cartKeys.order(userId ?? '', sessionId ?? ''),
    enabled: userId != null && sessionId != null,
    queryFn: async (): Promise<DomainOrder | null> => {
      const { data, error, status } = await supabase
        .from('orders')
        .select(
          'id, status, amount, currency, purchase_source, purchased_domains!purchased_domains_order_id_fkey (id, domain, years, status, problem, expires_at, domain_id, refund_amount, refunded_at)',
        )
        .eq('billing_id', sessionId!)
        .maybeSingle();
      if (error) throw new ApiError(error.message, status, error);
      return data as DomainOrder | null;
    },
    refetchInterval: (query) => (isSettled(query.state.data ?? null) ? false : ORDER_POLL_MS),
  });
}

export interface PurchasedDomainState {
  id: string;
  domain_id: string | null;
  order_id: string;
  renewal_order_id: string | null;
  domain: string;
  status: string;
  problem: string | null;
  expires_at: string | null;
  refunded_at: string | null;
  /** Set once the name's order was refunded in full: it is not renewed, it lapses at expiry. */
  renewal_stop: string | null;
}

const PURCHASED_COLUMNS =
  'id, domain_id, order_id, renewal_order_id, domain, status, problem, expires_at, refunded_at, renewal_stop';

/** The purchase and renewal state of bought domains, by their branded domain ids. */
export function usePurchasedDomainsQuery(domainIds: readonly string[]) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: [...cartKeys.all(userId ?? ''), 'purchased', [...domainIds].sort().join(',')],
    enabled: userId != null && domainIds.length > 0,
    queryFn: async (): Promise<PurchasedDomainState[]> => {
      const { data, error, status } = await supabase
        .from('purchased_domains')
        .select(PURCHASED_COLUMNS)
        .in('domain_id', [...domainIds]);
      if (error) throw new ApiError(error.message, status, error);
      return data;
    },
  });
}

/** The names an order bought or renewed. */
export function useOrderDomainsQuery(orderId: string | undefined) {
  const supabase = useSupabase();
  const userId = useUserId();
  const valid = orderId != null && /^[0-9a-f-]{36}$/.test(orderId);
  return useQuery({
    queryKey: [...cartKeys.all(userId ?? ''), 'order-domains', orderId ?? ''],
    enabled: userId != null && valid,
    queryFn: async (): Promise<PurchasedDomainState[]> => {
      const { data, error, status } = await supabase
        .from('purchased_domains')
        .select(PURCHASED_COLUMNS)
        .or(`order_id.eq.${orderId},renewal_order_id.eq.${orderId}`);
      if (error) throw new ApiError(error.message, status, error);
      return data;
    },
  });
}
