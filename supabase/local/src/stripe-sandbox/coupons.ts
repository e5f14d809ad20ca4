import { StripeError, invalidParam, missingParam, noSuchObject } from './errors.ts';
import { list, obj, str, type FormObject, type FormValue } from './form.ts';
import { stripeId } from './ids.ts';

/**
 * Stripe's discount objects: coupons (`/v1/coupons`, an id we may choose, percent_off or
 * amount_off with a currency, a duration) and promotion codes (`/v1/promotion_codes`, a
 * customer-facing code pointing at a coupon through `promotion.coupon`, as API versions since
 * 2025-09 shape it). A checkout or subscription names them in `discounts[]`; the discount is
 * taken off the invoice it applies to (`once`: the first one only).
 */

export interface Coupon {
  [key: string]: unknown;
  id: string;
  object: 'coupon';
  amount_off: number | null;
  currency: string | null;
  percent_off: number | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
  name: string | null;
  created: number;
  livemode: false;
  max_redemptions: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  valid: boolean;
  metadata: Record<string, string>;
}

export interface PromotionCode {
  [key: string]: unknown;
  id: string;
  object: 'promotion_code';
  active: boolean;
  code: string;
  created: number;
  customer: string | null;
  expires_at: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Record<string, string>;
  promotion: { type: 'coupon'; coupon: string };
  restrictions: { first_time_transaction: boolean; minimum_amount: number | null };
  times_redeemed: number;
}

/** A discount a checkout or subscription carries: the coupon and the code that brought it. */
export interface AppliedDiscount {
  id: string;
  coupon: Coupon;
  promotionCode: string | null;
}

const DURATIONS = ['once', 'repeating', 'forever'] as const;

export class CouponBook {
  readonly coupons = new Map<string, Coupon>();
  readonly promotionCodes = new Map<string, PromotionCode>();

  constructor(private readonly now: () => number) {}

  createCoupon(form: FormObject): Coupon {
    const id = str(form.id) ?? stripeId('', 8).slice(1);
    if (this.coupons.has(id))
      throw new StripeError(
        400,
        'invalid_request_error',
        'Coupon already exists.',
        'resource_already_exists',
        'id',
      );
    const percentText = str(form.percent_off);
    const amountText = str(form.amount_off);
    if ((percentText === undefined) === (amountText === undefined))
      throw new StripeError(
        400,
        'invalid_request_error',
        'You must pass exactly one of percent_off or amount_off.',
        'parameter_missing',
      );
    let percentOff: number | null = null;
    let amountOff: number | null = null;
    let currency: string | null = null;
    if (percentText !== undefined) {
      percentOff = Number(percentText);
      if (!Number.isFinite(percentOff) || percentOff <= 0 || percentOff > 100)
        throw invalidParam('percent_off', 'Invalid percent_off: must be between 0 and 100.');
    } else {
      amountOff = Number(amountText);
      if (!Number.isInteger(amountOff) || amountOff < 1)
        throw invalidParam('amount_off', `Invalid integer: ${amountText ?? ''}`);
      currency = str(form.currency)?.toLowerCase() ?? null;
      if (!currency) throw missingParam('currency');
    }
    const duration = (str(form.duration) ?? 'once') as Coupon['duration'];
    if (!DURATIONS.includes(duration))
      throw invalidParam('duration', 'Invalid duration: must be one of once, repeating, forever');
    const coupon: Coupon = {
      id,
      object: 'coupon',
      amount_off: amountOff,
      currency,
      percent_off: percentOff,
      duration,
      duration_in_months:
        duration === 'repeating' ? Number(str(form.duration_in_months) ?? '1') : null,
      name: str(form.name) ?? null,
      created: this.now(),
      livemode: false,
      max_redemptions: null,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
      metadata: {},
    };
    this.coupons.set(id, coupon);
    return coupon;
  }

  coupon(id: string): Coupon {
    const coupon = this.coupons.get(id);
    if (!coupon) throw noSuchObject('coupon', id);
    return coupon;
  }

  createPromotionCode(form: FormObject): PromotionCode {
    const promotion = obj(form.promotion);
    const couponId = str(promotion?.coupon);
    if (!couponId) throw missingParam('promotion[coupon]');
    this.coupon(couponId);
    const code = str(form.code) ?? stripeId('', 8).slice(1).toUpperCase();
    if ([...this.promotionCodes.values()].some((entry) => entry.active && entry.code === code))
      throw new StripeError(
        400,
        'invalid_request_error',
        'An active promotion code with `code` already exists.',
        'resource_already_exists',
        'code',
      );
    const promotionCode: PromotionCode = {
      id: stripeId('promo'),
      object: 'promotion_code',
      active: str(form.active) !== 'false',
      code,
      created: this.now(),
      customer: str(form.customer) ?? null,
      expires_at: null,
      livemode: false,
      max_redemptions: null,
      metadata: {},
      promotion: { type: 'coupon', coupon: couponId },
      restrictions: { first_time_transaction: false, minimum_amount: null },
      times_redeemed: 0,
    };
    this.promotionCodes.set(promotionCode.id, promotionCode);
    return promotionCode;
  }

  promotionCode(id: string): PromotionCode {
    const promotionCode = this.promotionCodes.get(id);
    if (!promotionCode) throw noSuchObject('promotion_code', id);
    return promotionCode;
  }

  /** `GET /v1/promotion_codes?code=…&active=…&coupon=…` filters. */
  findPromotionCodes(query: URLSearchParams): PromotionCode[] {
    const code = query.get('code');
    const active = query.get('active');
    const coupon = query.get('coupon');
    return [...this.promotionCodes.values()].filter(
      (entry) =>
        (code === null || entry.code === code) &&
        (active === null || String(entry.active) === active) &&
        (coupon === null || entry.promotion.coupon === coupon),
    );
  }

  /**
   * Reads `discounts[0][coupon]` or `discounts[0][promotion_code]` (at most one discount, as
   * Checkout allows), refusing an unknown, inactive or wrong-currency one as Stripe does.
   */
  discountFrom(value: FormValue | undefined, currency: string): AppliedDiscount | null {
    if (value === undefined || value === '') return null;
    const entries = list(value);
    if (!entries) throw invalidParam('discounts', 'Invalid array');
    if (entries.length > 1)
      throw invalidParam('discounts', 'You may only specify one discount at this time.');
    const entry = obj(entries[0]);
    if (!entry) return null;
    const promotionCodeId = str(entry.promotion_code);
    let couponId = str(entry.coupon);
    if (promotionCodeId) {
      const promotionCode = this.promotionCode(promotionCodeId);
      if (!promotionCode.active)
        throw invalidParam('discounts[0][promotion_code]', 'This promotion code is inactive.');
      couponId = promotionCode.promotion.coupon;
    }
    if (!couponId) throw missingParam('discounts[0][coupon]');
    const coupon = this.coupon(couponId);
    if (!coupon.valid) throw invalidParam('discounts[0][coupon]', 'This coupon is not valid.');
    if (coupon.currency && coupon.currency !== currency)
      throw invalidParam(
        'discounts[0][coupon]',
        `The coupon's currency (${coupon.currency}) does not match the currency (${currency}).`,
      );
    return { id: stripeId('di', 24), coupon, promotionCode: promotionCodeId ?? null };
  }

  /** Counts a redemption once the checkout completes. */
  redeem(discount: AppliedDiscount): void {
    discount.coupon.times_redeemed++;
    if (discount.promotionCode) this.promotionCode(discount.promotionCode).times_redeemed++;
  }
}

/** What a coupon takes off an amount (minor units), never more than the amount. */
export function discountAmount(coupon: Coupon, amount: number): number {
  const off =
    coupon.percent_off !== null
      ? Math.round((amount * coupon.percent_off) / 100)
      : (coupon.amount_off ?? 0);
  return Math.min(amount, off);
}

/** The `discounts` entry a checkout session shows. */
export function sessionDiscount(discount: AppliedDiscount) {
  return { coupon: discount.coupon.id, promotion_code: discount.promotionCode };
}
