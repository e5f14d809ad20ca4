import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useCallback } from 'react';
import { useCouponQuery } from '../data/coupon-query.ts';

/** The remembered coupon code (stored as typed, compared upper-cased by the server). */
export function useRememberedCoupon() {
  // No default value (undefined, not null): on mount Mantine writes back whatever it read unless
  // that is undefined, so a null default would store '' in place of a forgotten coupon.
  const [stored, setCode, removeCode] = useLocalStorage<string | undefined>({
    key: STORAGE_KEYS.coupon,
    getInitialValueInEffect: false,
    // Plain text in storage: the code is the value, not JSON.
    serialize: (value) => value ?? '',
    deserialize: (value) => (value ? value : undefined),
  });
  const code = stored ?? null;
  const query = useCouponQuery(code);
  const remember = useCallback((next: string) => setCode(next), [setCode]);
  return { code, remember, forget: removeCode, query };
}
