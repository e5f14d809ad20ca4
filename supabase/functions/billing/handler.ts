/**
 * billing: the signed-in user's plan with billing type 1 (Stripe) or 2 (Paddle, paddle.ts),
 * personal account only.
 *
 *   POST   /billing/new-subscription { billing_type, subscription, interval, currency, type,
 *          trial, coupon? }                          → 200 { checkout } (app-shell 7's data)
 *   GET    /billing/checkout/{session_id}            → 200 { status, subscription | null }
 *   DELETE /billing/settings/subscription[/now] { billing_type }  → 200 { subscription }
 *   PUT    /billing/settings/subscription/resume     → 200 { subscription }
 *
 * The checkout completes at Stripe; the stripe-webhook function records what it created, and
 * the success page polls GET checkout until that has happened. Cancel and resume change the
 * subscription at Stripe and store the answer at once; the webhook that follows is then stale.
 */
import { callerOf } from '../_shared/caller.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { HttpError, handler, json } from '../_shared/http.ts';
import { isImpersonation } from '../_shared/impersonation.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import { permissionDenied } from '../_shared/kiosk/staff.ts';
import { sql, type Sql } from '../_shared/sql.ts';
import { changePaddleSubscription, paddleCheckout, paddleCheckoutStatus } from './paddle.ts';
import { allowedReturnOrigin } from './return-origin.ts';

export const CREATE_FAILED =
  'We were unable to create your subscription. Please contact customer support.';
export const ALREADY_SUBSCRIBED = 'You already have a subscription. Change it from your settings.';
export const NO_SUBSCRIPTION = 'You have no subscription to change.';

const INTERVALS = { monthly: 'month', yearly: 'year' } as const;

export interface BillingDeps {
  billing: () => CardBilling;
  paddle: () => OverlayBilling;
  /** The billing type of an account that names none and has no preferred billing customer. */
  defaultBillingType: () => string;
  db: () => Sql;
  returnOrigins: () => string;
}

const defaults: BillingDeps = {
  billing: cardBillingFromEnv,
  paddle: overlayBillingFromEnv,
  defaultBillingType: () => Deno.env.get('BILLING_DEFAULT_TYPE') ?? '1',
  db: sql,
  returnOrigins: () => Deno.env.get('BILLING_RETURN_ORIGINS') ?? '',
};

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
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

/** The billing type the body names (1 or 2), or null when it names none. */
function readBillingType(body: Record<string, unknown>): 1 | 2 | null {
  const type = body.billing_type;
  if (type === undefined || type === null) return null;
  if (type === 1 || type === '1') return 1;
  if (type === 2 || type === '2') return 2;
  throw invalid('billing_type', 'The billing type must be 1 (card) or 2 (checkout).');
}

/** An account that names no billing type pays with its preferred provider, else the default. */
async function accountBillingType(db: Sql, accountId: string, fallback: string): Promise<1 | 2> {
  const [preferred] = await db<{ billing_type: number }[]>`
    select billing_type from public.billing_customers where account_id = ${accountId} and is_preferred`;
  return (preferred?.billing_type ?? Number(fallback)) === 2 ? 2 : 1;
}

interface Account {
  accountId: string;
  userId: string;
  email: string | null;
}

async function callerAccount(request: Request, db: Sql): Promise<Account> {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw permissionDenied();
  if (isImpersonation(claims)) throw permissionDenied();
  const [row] = await db<{ account_id: string; email: string | null }[]>`
    select personal_account_id as account_id, email from public.profiles where id = ${claims.sub}`;
  if (!row) throw permissionDenied();
  return { accountId: row.account_id, userId: claims.sub, email: row.email };
}

interface PlanPrice {
  price_id: string;
  plan_name: string;
  amount: string;
  currency: string;
  trial_days: number;
  trial_available: boolean;
}

async function newSubscription(request: Request, deps: BillingDeps): Promise<Response> {
  const db = deps.db();
  const account = await callerAccount(request, db);
  const body = await jsonBody(request);
  const billingType =
    readBillingType(body) ??
    (await accountBillingType(db, account.accountId, deps.defaultBillingType()));
  const name = body.subscription;
  if (typeof name !== 'string' || name === '') throw invalid('subscription', 'Choose a plan.');
  const interval = body.interval ?? 'yearly';
  if (interval !== 'monthly' && interval !== 'yearly')
    throw invalid('interval', 'The interval must be monthly or yearly.');
  const currency = String(body.currency ?? 'USD').toUpperCase();
  if ((body.type ?? 'default') !== 'default')
    throw invalid('type', 'Only plan subscriptions are sold here.');

  const [price] = await db<PlanPrice[]>`
    select pp.id as price_id, p.name as plan_name, pp.amount::text, pp.currency,
           p.trial_days, p.trial_available
    from public.plans p join public.plan_prices pp on pp.plan_id = p.id
    where p.name = ${name} and p.active and not p.hidden and not p.custom and p.type = 'user'
      and p.name <> 'free' and pp.active and pp.interval = ${interval} and pp.currency = ${currency}`;
  if (!price)
    throw invalid('subscription', 'This plan is not available for that period and currency.');

  const [current] = await db`
    select 1 from public.subscriptions s
    where s.account_id = ${account.accountId} and s.type = 'default' and s.name <> 'free'
      and (s.ends_at is null or s.ends_at > now())`;
  if (current) throw invalid('subscription', ALREADY_SUBSCRIBED);
  const [history] = await db`
    select 1 from public.subscriptions where account_id = ${account.accountId} and name <> 'free'`;
  const trialDays = body.trial === true && price.trial_available && !history ? price.trial_days : 0;

  const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins());
  if (!origin)
    throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');

  if (billingType === 2) {
    try {
      if (!account.email) throw new Error('Paddle needs an e-mail address for the customer');
      const checkout = await paddleCheckout(db, deps.paddle(), {
        accountId: account.accountId,
        email: account.email,
        planPriceId: price.price_id,
        planName: price.plan_name,
        interval,
        amount: Number(price.amount),
        currency: price.currency,
        trialDays,
        origin,
      });
      return json({ checkout });
    } catch (error) {
      console.error('billing: checkout not created', error);
      throw new HttpError(502, CREATE_FAILED, 'subscription_create_failed');
    }
  }

  const billing = deps.billing();
  const metadata = { account_id: account.accountId, plan_price_id: price.price_id };
  try {
    const [existing] = await db<{ billing_id: string }[]>`
      select billing_id from public.billing_customers
      where account_id = ${account.accountId} and billing_type = 1`;
    let customerId = existing?.billing_id;
    if (!customerId) {
      customerId = (
        await billing.createCustomer({
          email: account.email,
          metadata: { account_id: account.accountId },
        })
      ).id;
      await db`
        insert into public.billing_customers (account_id, billing_type, billing_id, is_preferred)
        values (${account.accountId}, 1, ${customerId},
          not exists (select 1 from public.billing_customers where account_id = ${account.accountId}))
        on conflict (account_id, billing_type) do nothing`;
      const [winner] = await db<{ billing_id: string }[]>`
        select billing_id from public.billing_customers
        where account_id = ${account.accountId} and billing_type = 1`;
      customerId = winner!.billing_id;
    }
    const successUrl = `${origin}/app/settings/subscription/success?session_id={CHECKOUT_SESSION_ID}`;
    const session = await billing.createCheckout({
      customerId,
      unitAmount: Number(price.amount),
      currency: price.currency.toLowerCase(),
      interval: INTERVALS[interval],
      productName: `Shortlane ${price.plan_name} (${interval})`,
      trialDays,
      successUrl,
      cancelUrl: `${origin}/app/pricing`,
      metadata,
    });
    return json({
      checkout: {
        billing_type: 1,
        customer: { id: customerId, auth_token: null },
        discount_code: null,
        prices: [{ price_id: price.price_id }],
        payment_method: null,
        transaction_id: session.id,
        success_url: successUrl,
        locale: 'en',
        allow_discounts: false,
        payment_methods: ['card'],
        payment_url: session.url,
      },
    });
  } catch (error) {
    console.error('billing: checkout not created', error);
    throw new HttpError(502, CREATE_FAILED, 'subscription_create_failed');
  }
}

const SUBSCRIPTION_COLUMNS =
  'name, interval, billing_status, ends_at, trial_ends_at, period_ends_at';

async function checkoutStatus(request: Request, deps: BillingDeps, sessionId: string) {
  const db = deps.db();
  const account = await callerAccount(request, db);
  if (/^txn_[a-z0-9]+$/.test(sessionId)) {
    const paddle = await paddleCheckoutStatus(deps.paddle(), account.accountId, sessionId);
    if (!paddle) throw new HttpError(404, 'Unknown checkout.', 'checkout_not_found');
    const [subscription] = paddle.subscriptionId
      ? await db.unsafe(
          `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions
           where billing_type = 2 and billing_id = $1 and account_id = $2`,
          [paddle.subscriptionId, account.accountId],
        )
      : [];
    return json({ status: paddle.status, subscription: subscription ?? null });
  }
  if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw invalid('session_id', 'Unknown checkout.');
  let session;
  try {
    session = await deps.billing().retrieveCheckout(sessionId);
  } catch {
    throw new HttpError(404, 'Unknown checkout.', 'checkout_not_found');
  }
  if (session.metadata?.account_id !== account.accountId)
    throw new HttpError(404, 'Unknown checkout.', 'checkout_not_found');
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  const [subscription] = subscriptionId
    ? await db.unsafe(
        `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions
         where billing_type = 1 and billing_id = $1 and account_id = $2`,
        [subscriptionId, account.accountId],
      )
    : [];
  return json({ status: session.status, subscription: subscription ?? null });
}

type Change = 'cancel' | 'cancel-now' | 'resume';

async function changeSubscription(request: Request, deps: BillingDeps, change: Change) {
  const db = deps.db();
  const account = await callerAccount(request, db);
  const billingType = change !== 'resume' ? readBillingType(await jsonBody(request)) : null;
  const [row] = await db<{ billing_id: string; billing_type: number }[]>`
    select billing_id, billing_type from public.subscriptions
    where account_id = ${account.accountId} and type = 'default'
      and billing_type = coalesce(${billingType}::smallint, billing_type)
      and billing_id is not null and (ends_at is null or ends_at > now())
    order by created_at desc limit 1`;
  if (!row) throw new HttpError(404, NO_SUBSCRIPTION, 'subscription_not_found');
  if (row.billing_type === 2) {
    await changePaddleSubscription(db, deps.paddle(), row.billing_id, change);
    const [subscription] = await db.unsafe(
      `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions where billing_type = 2 and billing_id = $1`,
      [row.billing_id],
    );
    return json({ subscription });
  }
  const billing = deps.billing();
  const updated =
    change === 'cancel-now'
      ? await billing.cancelNow(row.billing_id)
      : await billing.setCancelAtPeriodEnd(row.billing_id, change === 'cancel');
  await db`select app.apply_stripe_subscription(${db.json(JSON.parse(JSON.stringify(updated)))}, now())`;
  const [subscription] = await db.unsafe(
    `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions where billing_type = 1 and billing_id = $1`,
    [row.billing_id],
  );
  return json({ subscription });
}

export function createBillingHandler(deps: BillingDeps = defaults) {
  return handler(async (request) => {
    const path = new URL(request.url).pathname
      .replace(/^.*?\/billing(?=\/|$)/, '')
      .replace(/\/+$/, '');
    const method = request.method;
    if (method === 'POST' && path === '/new-subscription')
      return await newSubscription(request, deps);
    const checkout = /^\/checkout\/([^/]+)$/.exec(path);
    if (method === 'GET' && checkout) return await checkoutStatus(request, deps, checkout[1]!);
    if (method === 'DELETE' && path === '/settings/subscription')
      return await changeSubscription(request, deps, 'cancel');
    if (method === 'DELETE' && path === '/settings/subscription/now')
      return await changeSubscription(request, deps, 'cancel-now');
    if (method === 'PUT' && path === '/settings/subscription/resume')
      return await changeSubscription(request, deps, 'resume');
    throw new HttpError(404, 'Not Found', 'not_found');
  });
}
