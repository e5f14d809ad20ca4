import { useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { useCallback } from 'react';
import { useCouponQuery } from '../data/coupon-query.ts';

/** The remembered coupon code (stored as typed, compared upper-cased by the server). */
export function useRememberedCoupon() {
  const [code, setCode, removeCode] = useLocalStorage<string | null>({
    key: STORAGE_KEYS.coupon,
    defaultValue: null,
    getInitialValueInEffect: false,
    // Plain text in storage: the code is the value, not JSON.
    serialize: (value) => value ?? '',
    deserialize: (value) => (value ? value : null),
  });
  const query = useCouponQuery(code);
  const remember = useCallback((next: string) => setCode(next), [setCode]);
  return { code, remember, forget: removeCode, query };
}
