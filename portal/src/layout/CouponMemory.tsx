import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useRememberedCoupon } from '../state/coupon.ts';

/** The query parameter a coupon arrives in. */
export const COUPON_PARAM = 'coupon';

/**
 * A coupon query parameter is remembered on every navigation (app-shell 2); one that is
 * unknown, or fails to load, is forgotten (app-shell 5).
 */
export function CouponMemory() {
  const { search } = useLocation();
  const { code, remember, forget, query } = useRememberedCoupon();

  useEffect(() => {
    const fromUrl = new URLSearchParams(search).get(COUPON_PARAM)?.trim();
    if (fromUrl) remember(fromUrl);
  }, [search, remember]);

  useEffect(() => {
    if (code != null && query.isError) forget();
  }, [code, query.isError, forget]);

  return null;
}
