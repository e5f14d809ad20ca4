import { useQuery } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { couponKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';

export interface Coupon {
  code: string;
  amountOff: number | null;
  percentOff: number | null;
  currency: string;
  intervals: string[];
}

/** A coupon that applies now; throws when it is unknown or over (404 coupon_not_found). */
export async function fetchCoupon(supabase: PortalSupabase, code: string): Promise<Coupon> {
  const rows = unwrap(
    await supabase
      .rpc('find_coupon', { p_code: code })
      // An unknown coupon is simply forgotten (app-shell 5), not an error to announce.
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
  );
  const row = rows[0];
  if (!row) throw new Error(`Coupon ${code} not found.`);
  return {
    code: row.code,
    amountOff: row.amount_off,
    percentOff: row.percent_off,
    currency: row.currency,
    intervals: row.intervals,
  };
}

export function useCouponQuery(code: string | null) {
  const supabase = useSupabase();
  return useQuery({
    queryKey: couponKeys.detail(code ?? ''),
    queryFn: () => fetchCoupon(supabase, code!),
    enabled: code != null,
    retry: false,
  });
}
