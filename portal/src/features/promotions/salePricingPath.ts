import { BLACK_FRIDAY_2024_COUPON } from '@shortlane/shared/sale-calendar.ts';
import { paths } from '../../routes/paths.ts';

/** Pricing with the sale coupon: the coupon is remembered (CouponMemory) and goes to checkout. */
export const SALE_PRICING_PATH = `${paths['signup.pricing']}?coupon=${BLACK_FRIDAY_2024_COUPON}`;
