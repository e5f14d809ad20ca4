/**
 * Coupons (app-shell 3, 5 and 7): `GET coupon/{code}` answers amount_off and percent_off (404
 * for an unknown or expired one, which the portal then forgets), and a checkout applies the
 * remembered coupon through the provider's own object (a Stripe coupon, a Paddle discount), when it applies to the interval (the
 * Black Friday coupon: yearly, during the sale).
 */
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { HttpError, json } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import { couponApplies } from '../../../shared/src/plan-change.ts';
import {
  BLACK_FRIDAY_2024_COUPON,
  salePhaseAt,
  saleCalendarFromConfig,
} from '../../../shared/src/sale-calendar.ts';
import type { Interval } from './order.ts';

export interface Coupon {
  code: string;
  amount_off: number | null;
  percent_off: number | null;
  currency: string | null;
  intervals: Interval[];
}

const CODE = /^[A-Za-z0-9_-]{3,64}$/;

export async function findCoupon(db: Sql, code: string): Promise<Coupon | null> {
  if (!CODE.test(code)) return null;
  try {
    const [row] = await db<
      {
        code: string;
        amount_off: string | null;
        percent_off: string | null;
        currency: string | null;
        intervals: Interval[];
      }[]
    >`select * from public.find_coupon(${code})`;
    if (!row) return null;
    return {
      code: row.code,
      amount_off: row.amount_off === null ? null : Number(row.amount_off),
      percent_off: row.percent_off === null ? null : Number(row.percent_off),
      currency: row.currency,
      intervals: row.intervals,
    };
  } catch (error) {
    if ((error as { message?: string }).message === 'coupon_not_found') return null;
    throw error;
  }
}

/**
 * The sale coupon exists only while the sale runs (its dates are the configured calendar's, not
 * the row's), so outside it the lookup answers 404 and the portal forgets it.
 */
export async function couponLookup(
  db: Sql,
  code: string,
  now: Date,
  calendarConfig?: string,
): Promise<Response> {
  const coupon = await findCoupon(db, decodeURIComponent(code));
  const offSale =
    coupon?.code === BLACK_FRIDAY_2024_COUPON &&
    salePhaseAt(now, configuredSaleCalendar(calendarConfig)) === null;
  if (!coupon || offSale) throw new HttpError(404, 'Coupon not found.', 'coupon_not_found');
  return json(coupon);
}

/** The sale calendar: SALE_CALENDAR (JSON of SaleCalendarDates) when configured, else the spec's. */
export function configuredSaleCalendar(raw: string | undefined) {
  return saleCalendarFromConfig(raw, 'SALE_CALENDAR');
}

/**
 * The Stripe coupon for a checkout: our coupon, if it exists and applies to the interval now,
 * created at Stripe under its code the first time. Null otherwise: the checkout goes on at the
 * full price, as an unknown coupon is simply forgotten.
 */
/** Our coupon named by a checkout, when it exists and applies to the interval now. */
async function applyingCoupon(
  db: Sql,
  code: unknown,
  interval: Interval,
  now: Date,
  calendarConfig?: string,
): Promise<Coupon | null> {
  if (typeof code !== 'string' || code === '') return null;
  const coupon = await findCoupon(db, code);
  if (!coupon) return null;
  return couponApplies(coupon, interval, now, configuredSaleCalendar(calendarConfig))
    ? coupon
    : null;
}

/** The Paddle discount for a checkout's coupon (billing type 2), as checkoutCoupon for Stripe. */
export async function checkoutDiscount(
  db: Sql,
  paddle: OverlayBilling,
  code: unknown,
  interval: Interval,
  now: Date,
  calendarConfig?: string,
): Promise<string | null> {
  const coupon = await applyingCoupon(db, code, interval, now, calendarConfig);
  if (!coupon) return null;
  const discount = await paddle.ensureDiscount({
    code: coupon.code,
    percentOff: coupon.percent_off,
    amountOff: coupon.amount_off,
    currency: coupon.currency,
  });
  return discount.id;
}

export async function checkoutCoupon(
  db: Sql,
  billing: CardBilling,
  code: unknown,
  interval: Interval,
  now: Date,
  calendarConfig?: string,
): Promise<string | null> {
  const coupon = await applyingCoupon(db, code, interval, now, calendarConfig);
  if (!coupon) return null;
  const created = await billing.ensureCoupon({
    id: coupon.code,
    percentOff: coupon.percent_off,
    amountOff: coupon.amount_off,
    currency: coupon.currency,
  });
  return created.id;
}
