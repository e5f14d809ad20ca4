/**
 * Reading a billing call's body (app-shell 7: billing_type, subscription, interval, currency,
 * type) and finding the plan price it names.
 */
import type { PriceRequest } from '../_shared/billing/provider.ts';
import { HttpError } from '../_shared/http.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import type { Sql } from '../_shared/sql.ts';

export const INTERVALS = { monthly: 'month', yearly: 'year' } as const;
export type Interval = keyof typeof INTERVALS;

export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return body as Record<string, unknown>;
  } catch {
    // Falls through to the refusal.
  }
  throw new HttpError(400, 'The body must be a JSON object', 'invalid_json');
}

export type BillingType = 1 | 2;

/** The billing type a body names: 1 (card, Stripe), 2 (overlay checkout, Paddle), or none. */
export function readBillingType(body: Record<string, unknown>): BillingType | null {
  const type = body.billing_type;
  if (type === undefined || type === null) return null;
  if (type === 1 || type === '1') return 1;
  if (type === 2 || type === '2') return 2;
  throw invalid('billing_type', 'The billing type must be 1 (card) or 2 (checkout).');
}

export interface PlanOrder {
  name: string;
  interval: Interval;
  currency: string;
}

/** The plan, interval and currency a new-subscription or update call names. */
export function readOrder(body: Record<string, unknown>): PlanOrder {
  readBillingType(body);
  const name = body.subscription;
  if (typeof name !== 'string' || name === '') throw invalid('subscription', 'Choose a plan.');
  const interval = body.interval ?? 'yearly';
  if (interval !== 'monthly' && interval !== 'yearly')
    throw invalid('interval', 'The interval must be monthly or yearly.');
  const currency = String(body.currency ?? 'USD').toUpperCase();
  if ((body.type ?? 'default') !== 'default')
    throw invalid('type', 'Only plan subscriptions are sold here.');
  return { name, interval, currency };
}

export interface PlanPrice {
  price_id: string;
  plan_name: string;
  interval: Interval;
  amount: string;
  currency: string;
  trial_days: number;
  trial_available: boolean;
  force_payment_method: boolean;
  allow_interval_downgrade: boolean;
  force_billing_address: boolean;
}

const PRICE_COLUMNS = `pp.id as price_id, p.name as plan_name, pp.interval, pp.amount::text,
  pp.currency, p.trial_days, p.trial_available, p.force_payment_method,
  p.allow_interval_downgrade, p.force_billing_address`;

/** A plan price by its id, whatever its plan's state (a pending downgrade names it). */
export async function planPriceById(db: Sql, id: string): Promise<PlanPrice | null> {
  const [price] = await db.unsafe<PlanPrice[]>(
    `select ${PRICE_COLUMNS}
     from public.plan_prices pp join public.plans p on p.id = pp.plan_id where pp.id = $1`,
    [id],
  );
  return price ?? null;
}

/** The active price of a public, non-custom paid plan; a 422 when there is none. */
export async function findPlanPrice(db: Sql, order: PlanOrder): Promise<PlanPrice> {
  const [price] = await db.unsafe<PlanPrice[]>(
    `select ${PRICE_COLUMNS}
     from public.plans p join public.plan_prices pp on pp.plan_id = p.id
     where p.name = $1 and p.active and not p.hidden and not p.custom
       and p.type = 'user' and p.name <> 'free' and pp.active and pp.interval = $2
       and pp.currency = $3`,
    [order.name, order.interval, order.currency],
  );
  if (!price)
    throw invalid('subscription', 'This plan is not available for that period and currency.');
  return price;
}

/** The price as the provider is asked for it. */
export function priceRequest(price: PlanPrice): PriceRequest {
  return {
    unitAmount: Number(price.amount),
    currency: price.currency.toLowerCase(),
    interval: INTERVALS[price.interval],
    productName: `Shortlane ${price.plan_name} (${price.interval})`,
  };
}

/** How the provider's events find the account and the plan (see app.apply_stripe_subscription). */
export function planMetadata(accountId: string, price: PlanPrice): Record<string, string> {
  return { account_id: accountId, plan_price_id: price.price_id };
}
