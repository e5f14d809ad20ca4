/**
 * The billing function's billing type 2 (Paddle Billing): a checkout is a Paddle transaction
 * that the portal's /paddle/payment page opens in Paddle.js' overlay (the transaction's payment
 * link, `?_ptxn=`); the paddle-webhook function records what it creates. Cancel and resume
 * change the subscription at Paddle and store its answer at once through the same
 * app.apply_paddle_subscription the webhook uses (guarded by Paddle's `updated_at`).
 */
import type { OverlayBilling, OverlayPriceRequest } from '../_shared/billing/overlay-provider.ts';
import { plainJson, type Sql } from '../_shared/sql.ts';
import type { PlanPrice } from './order.ts';

export interface PaddleCheckoutInput {
  accountId: string;
  email: string;
  planPriceId: string;
  planName: string;
  interval: 'monthly' | 'yearly';
  /** Minor units. */
  amount: number;
  currency: string;
  trialDays: number;
  /** The portal's origin, already checked against BILLING_RETURN_ORIGINS. */
  origin: string;
  /** The scope's success page under the origin (…/subscription/success). */
  successPath: string;
  /** The scope as the portal names it (`team:{org}/{team}`, `organization:{org}`), if not personal. */
  scopeKey?: string | null;
  /** A Paddle discount taken off the first transaction (the remembered coupon's). */
  discountId?: string | null;
}

/** The spec's payment flow kinds that go through /paddle/payment. */
export type PaddleFlow =
  'subscription-purchase' | 'invoice-payment' | 'payment-method-update' | 'domain-purchase';

/**
 * Our /paddle/payment link for a transaction: the flow says where the page goes when the overlay
 * completes or closes; `scope` (a purchase) whose success page, `return` (a payment-method
 * update) which portal page.
 */
export function paddlePaymentUrl(
  origin: string,
  transactionId: string,
  flow: PaddleFlow,
  extra: { scope?: string | null; returnPath?: string | null } = {},
): string {
  const query = new URLSearchParams();
  if (flow !== 'subscription-purchase') query.set('flow', flow);
  if (extra.scope) query.set('scope', extra.scope);
  if (extra.returnPath) query.set('return', extra.returnPath);
  query.set('_ptxn', transactionId);
  return `${origin}/paddle/payment?${query.toString()}`;
}

/** The plan price as Paddle is asked for it (a non-catalog price, upper-case currency). */
export function paddlePriceRequest(price: PlanPrice): OverlayPriceRequest {
  return {
    unitAmount: Number(price.amount),
    currency: price.currency.toUpperCase(),
    interval: price.interval === 'monthly' ? 'month' : 'year',
    productName: `Shortlane ${planTitle(price.plan_name)}`,
    priceName: `Shortlane ${planTitle(price.plan_name)} (${price.interval})`,
  };
}

/** A plan's name as customers read it on Paddle's checkout and receipts (pro-team → Pro Team). */
const planTitle = (name: string) =>
  name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** The account's Paddle customer, made once (the first writer wins a race). */
export async function customerFor(
  db: Sql,
  paddle: OverlayBilling,
  input: { accountId: string; email: string },
) {
  const [existing] = await db<{ billing_id: string }[]>`
    select billing_id from public.billing_customers
    where account_id = ${input.accountId} and billing_type = 2`;
  if (existing) return existing.billing_id;
  const customer = await paddle.createCustomer({
    email: input.email,
    customData: { account_id: input.accountId },
  });
  await db`
    insert into public.billing_customers (account_id, billing_type, billing_id, is_preferred)
    values (${input.accountId}, 2, ${customer.id},
      not exists (select 1 from public.billing_customers where account_id = ${input.accountId}))
    on conflict do nothing`;
  const [winner] = await db<{ billing_id: string }[]>`
    select billing_id from public.billing_customers
    where account_id = ${input.accountId} and billing_type = 2`;
  return winner!.billing_id;
}

/** The spec's checkout data (app-shell 7) for a Paddle transaction opened in the overlay. */
export async function paddleCheckout(db: Sql, paddle: OverlayBilling, input: PaddleCheckoutInput) {
  const customerId = await customerFor(db, paddle, input);
  const transaction = await paddle.createCheckout({
    customerId,
    unitAmount: input.amount,
    currency: input.currency.toUpperCase(),
    interval: input.interval === 'monthly' ? 'month' : 'year',
    productName: `Shortlane ${planTitle(input.planName)}`,
    priceName: `Shortlane ${planTitle(input.planName)} (${input.interval})`,
    trialDays: input.trialDays,
    checkoutUrl: `${input.origin}/paddle/payment`,
    customData: { account_id: input.accountId, plan_price_id: input.planPriceId },
    discountId: input.discountId ?? null,
  });
  return {
    billing_type: 2 as const,
    customer: { id: customerId, auth_token: await paddle.customerAuthToken(customerId) },
    discount_code: input.discountId ?? null,
    prices: transaction.items.map((item) => ({ price_id: item.price?.id ?? '' })),
    payment_method: null,
    transaction_id: transaction.id,
    success_url: `${input.origin}${input.successPath}?session_id={CHECKOUT_SESSION_ID}`,
    locale: 'en',
    allow_discounts: Boolean(input.discountId),
    payment_methods: ['card'],
    payment_url: paddlePaymentUrl(input.origin, transaction.id, 'subscription-purchase', {
      scope: input.scopeKey,
    }),
  };
}

/**
 * Where a Paddle checkout stands and whose account it is for (the caller checks it may manage
 * that account's billing); null for a transaction Paddle does not know.
 */
export async function paddleCheckoutStatus(paddle: OverlayBilling, id: string) {
  let transaction;
  try {
    transaction = await paddle.retrieveTransaction(id);
  } catch {
    return null;
  }
  const accountId = (transaction.customData as { account_id?: unknown } | null)?.account_id;
  const status = ['paid', 'completed', 'billed'].includes(transaction.status)
    ? 'complete'
    : transaction.status === 'canceled'
      ? 'expired'
      : 'open';
  return {
    status,
    subscriptionId: transaction.subscriptionId,
    accountId: typeof accountId === 'string' ? accountId : null,
  } as const;
}

export type PaddleChange = 'cancel' | 'cancel-now' | 'resume';

/** Stores what Paddle answered with, as the webhook would (guarded by its `updated_at`). */
export async function storePaddleSubscription(db: Sql, subscription: unknown) {
  await db`select app.apply_paddle_subscription(${db.json(plainJson(subscription))})`;
}

export async function changePaddleSubscription(
  db: Sql,
  paddle: OverlayBilling,
  billingId: string,
  change: PaddleChange,
) {
  const updated =
    change === 'resume'
      ? await paddle.removeScheduledChange(billingId)
      : await paddle.cancel(billingId, change === 'cancel' ? 'next_billing_period' : 'immediately');
  await storePaddleSubscription(db, updated);
}
