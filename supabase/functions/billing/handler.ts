/**
 * billing: plans with billing type 1 (Stripe) or 2 (Paddle, paddle.ts) for a person, a team or
 * an organization.
 *
 *   POST   /billing/new-subscription { billing_type, subscription, interval, currency, type,
 *          trial, coupon?, organization?, team? }   → 200 { checkout } (app-shell 7's data)
 *   GET    /billing/checkout/{session_id}            → 200 { status, subscription | null }
 *   GET    /billing/coupon/{code}                    → 200 { code, amount_off, percent_off, … }
 *   …      /billing/{scope}/subscription…            cancel, resume, reactivate, update,
 *                                                    scheduled downgrade (lifecycle.ts)
 *   …      /billing/… payment-method, invoice PDF, past-due payment and vatinfo (documents.ts)
 *
 * The checkout completes at the provider (Stripe's page, or Paddle's overlay on /paddle/payment);
 * its webhook function records what it created, and the success page polls GET checkout
 * (`cs_…` for Stripe, `txn_…` for Paddle) until that has happened. An order that names no
 * billing type uses the account's preferred billing customer's, else BILLING_DEFAULT_TYPE.
 * A remembered coupon is applied through the provider's own object (a Stripe coupon, a Paddle
 * discount). A plan with `force_billing_address` is sold only once the account's billing address
 * is on file (/user/vatinfo): a 422 naming `billing_address` until then.
 *
 *   GET    /billing/subscriptions?billing_type=      the account's plan subscriptions (app-shell 7),
 *          also organization/{org}/team/{team}/subscriptions and organization/{org}/subscriptions
 *   POST   /billing/paddle/scheduled-changes { lead_seconds? }   service role (cron job
 *          paddle-downgrades): pending Paddle downgrades whose period ends within the lead are
 *          applied → { applied }
 */
import { billingDocumentsFromEnv, type BillingDocuments } from '../_shared/billing/documents.ts';
import { cardCustomerOf } from '../_shared/billing/customer.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { HttpError, handler, json } from '../_shared/http.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import { sql, type Sql } from '../_shared/sql.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import {
  billingAccount,
  mayManageBilling,
  scopeFromBody,
  scopeKey,
  scopedSubscriptionPath,
  subscriptionPagePath,
} from './account.ts';
import { checkoutCoupon, checkoutDiscount, couponLookup } from './coupon.ts';
import { SUBSCRIPTION_COLUMNS, applyDueDowngrades, subscriptionRoute } from './lifecycle.ts';
import { listSubscriptions } from './subscriptions.ts';
import { callerOf } from '../_shared/caller.ts';
import {
  findPlanPrice,
  jsonBody,
  planMetadata,
  priceRequest,
  readBillingType,
  readOrder,
  type BillingType,
} from './order.ts';
import { customerFor, paddleCheckout, paddleCheckoutStatus } from './paddle.ts';
import { documentRoute } from './documents.ts';
import { allowedReturnOrigin } from './return-origin.ts';

export const CREATE_FAILED = MESSAGES.subscriptionCreateFailed;
export const ALREADY_SUBSCRIBED = 'You already have a subscription. Change it from your settings.';
export { NO_SUBSCRIPTION } from './lifecycle.ts';

export interface BillingDeps {
  billing: () => CardBilling;
  /** Payment method, invoice documents, past-due payment, tax details (documents.ts). */
  documents?: () => BillingDocuments;
  paddle: () => OverlayBilling;
  /** The billing type of an account that names none and has no preferred billing customer. */
  defaultBillingType: () => string;
  db: () => Sql;
  returnOrigins: () => string;
  /** The clock coupons are checked against (the sale calendar). */
  now?: () => Date;
  /** SALE_CALENDAR: the sale's dates as JSON, when configured. */
  saleCalendar?: () => string | undefined;
}

const defaults: BillingDeps = {
  billing: cardBillingFromEnv,
  documents: billingDocumentsFromEnv,
  paddle: overlayBillingFromEnv,
  defaultBillingType: () => Deno.env.get('BILLING_DEFAULT_TYPE') ?? '1',
  db: sql,
  returnOrigins: () => Deno.env.get('BILLING_RETURN_ORIGINS') ?? '',
  now: () => new Date(),
  saleCalendar: () => Deno.env.get('SALE_CALENDAR'),
};

export const BILLING_ADDRESS_REQUIRED =
  'This plan needs your billing address and tax details before you subscribe.';

/** How long before a period ends a pending Paddle downgrade is applied, unless the cron says. */
export const DOWNGRADE_LEAD_MS = 60 * 60_000;

/** An account that names no billing type pays with its preferred provider, else the default. */
async function accountBillingType(
  db: Sql,
  accountId: string,
  fallback: string,
): Promise<BillingType> {
  const [preferred] = await db<{ billing_type: number }[]>`
    select billing_type from public.billing_customers where account_id = ${accountId} and is_preferred`;
  return (preferred?.billing_type ?? Number(fallback)) === 2 ? 2 : 1;
}

async function newSubscription(request: Request, deps: BillingDeps): Promise<Response> {
  const db = deps.db();
  const body = await jsonBody(request);
  const order = readOrder(body);
  const account = await billingAccount(request, db, scopeFromBody(body));
  const billingType =
    readBillingType(body) ??
    (await accountBillingType(db, account.accountId, deps.defaultBillingType()));
  const price = await findPlanPrice(db, order);
  if (price.force_billing_address) {
    const [onFile] = await db`
      select 1 from public.billing_customers
      where account_id = ${account.accountId} and billing_type = ${billingType}
        and billing_address is not null`;
    if (!onFile) {
      // The customer exists from here on, so the tax details page has one to put them on.
      if (billingType === 2 && account.email)
        await customerFor(db, deps.paddle(), {
          accountId: account.accountId,
          email: account.email,
        });
      if (billingType === 1)
        await cardCustomerOf(db, deps.billing(), account.accountId, account.email);
      throw invalid('billing_address', BILLING_ADDRESS_REQUIRED);
    }
  }

  const [current] = await db`
    select 1 from public.subscriptions s
    where s.account_id = ${account.accountId} and s.type = 'default' and s.name <> 'free'
      and (s.ends_at is null or s.ends_at > now())`;
  if (current) throw invalid('subscription', ALREADY_SUBSCRIBED);
  const [fits] = await db<{ fits: boolean }[]>`
    select app.plan_fits_account(${account.accountId}, ${price.price_id}) as fits`;
  if (!fits?.fits) throw invalid('subscription', MESSAGES.notEligibleForPlan);
  // A trial once per account: any paid plan before, trial or not, uses it up (bought domains'
  // `shopping-cart` subscriptions are not plans).
  const [history] = await db`
    select 1 from public.subscriptions
    where account_id = ${account.accountId} and type = 'default' and name <> 'free'`;
  const trialDays = body.trial === true && price.trial_available && !history ? price.trial_days : 0;

  const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins());
  if (!origin)
    throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');

  if (billingType === 2) {
    try {
      if (!account.email) throw new Error('Paddle needs an e-mail address for the customer');
      const paddle = deps.paddle();
      const discountId = await checkoutDiscount(
        db,
        paddle,
        body.coupon,
        order.interval,
        deps.now?.() ?? new Date(),
        deps.saleCalendar?.(),
      );
      const checkout = await paddleCheckout(db, paddle, {
        accountId: account.accountId,
        email: account.email,
        planPriceId: price.price_id,
        planName: price.plan_name,
        interval: order.interval,
        amount: Number(price.amount),
        currency: price.currency,
        trialDays,
        origin,
        successPath: `${subscriptionPagePath(account.scope)}/success`,
        scopeKey: scopeKey(account.scope),
        discountId,
      });
      return json({ checkout });
    } catch (error) {
      console.error('billing: checkout not created', error);
      throw new HttpError(502, CREATE_FAILED, 'subscription_create_failed');
    }
  }

  const billing = deps.billing();
  const metadata = planMetadata(account.accountId, price);
  try {
    const customerId = await cardCustomerOf(db, billing, account.accountId, account.email);
    const couponId = await checkoutCoupon(
      db,
      billing,
      body.coupon,
      order.interval,
      deps.now?.() ?? new Date(),
      deps.saleCalendar?.(),
    );
    const page = `${origin}${subscriptionPagePath(account.scope)}`;
    const successUrl = `${page}/success?session_id={CHECKOUT_SESSION_ID}`;
    const session = await billing.createCheckout({
      customerId,
      ...priceRequest(price),
      trialDays,
      successUrl,
      cancelUrl: account.scope.organization === null ? `${origin}/app/pricing` : page,
      metadata,
      couponId,
      requirePaymentMethod: price.force_payment_method,
    });
    return json({
      checkout: {
        billing_type: 1,
        customer: { id: customerId, auth_token: null },
        discount_code: couponId,
        prices: [{ price_id: price.price_id }],
        payment_method: null,
        transaction_id: session.id,
        success_url: successUrl,
        locale: 'en',
        allow_discounts: couponId !== null,
        payment_methods: ['card'],
        payment_url: session.url,
      },
    });
  } catch (error) {
    console.error('billing: checkout not created', error);
    throw new HttpError(502, CREATE_FAILED, 'subscription_create_failed');
  }
}

async function checkoutStatus(request: Request, deps: BillingDeps, sessionId: string) {
  const db = deps.db();
  if (/^txn_[a-z0-9]+$/.test(sessionId)) {
    const paddle = await paddleCheckoutStatus(deps.paddle(), sessionId);
    if (!paddle?.accountId || !(await mayManageBilling(request, paddle.accountId)))
      throw new HttpError(404, 'Unknown checkout.', 'checkout_not_found');
    const [subscription] = paddle.subscriptionId
      ? await db.unsafe(
          `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions
           where billing_type = 2 and billing_id = $1 and account_id = $2`,
          [paddle.subscriptionId, paddle.accountId],
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
  const accountId = session.metadata?.account_id;
  if (!accountId || !(await mayManageBilling(request, accountId)))
    throw new HttpError(404, 'Unknown checkout.', 'checkout_not_found');
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  const [subscription] = subscriptionId
    ? await db.unsafe(
        `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions
         where billing_type = 1 and billing_id = $1 and account_id = $2`,
        [subscriptionId, accountId],
      )
    : [];
  return json({ status: session.status, subscription: subscription ?? null });
}

export function createBillingHandler(deps: BillingDeps = defaults) {
  return handler(async (request) => {
    const path = new URL(request.url).pathname
      .replace(/^.*?\/billing(?=\/|$)/, '')
      .replace(/\/+$/, '');
    const method = request.method;
    const documents = documentRoute(request, path, deps);
    if (documents) return await documents;
    if (method === 'POST' && path === '/new-subscription')
      return await newSubscription(request, deps);
    const checkout = /^\/checkout\/([^/]+)$/.exec(path);
    if (method === 'GET' && checkout) return await checkoutStatus(request, deps, checkout[1]!);
    const coupon = /^\/coupon\/([^/]+)$/.exec(path);
    if (method === 'GET' && coupon)
      return await couponLookup(
        deps.db(),
        coupon[1]!,
        deps.now?.() ?? new Date(),
        deps.saleCalendar?.(),
      );
    if (method === 'POST' && path === '/paddle/scheduled-changes') {
      if (callerOf(request).claims.role !== 'service_role')
        throw new HttpError(403, 'Permission denied', 'permission_denied');
      // The cron job names its window (app.billing_schedule_settings.lead_seconds).
      const lead = (await jsonBody(request)).lead_seconds;
      const leadMs =
        typeof lead === 'number' && Number.isInteger(lead) && lead >= 0 && lead <= 86_400
          ? lead * 1000
          : DOWNGRADE_LEAD_MS;
      return json({ applied: await applyDueDowngrades(deps.db(), deps.paddle(), leadMs) });
    }
    const list = listSubscriptions(request, path, deps.db());
    if (method === 'GET' && list) return await list;
    const scoped = scopedSubscriptionPath(path);
    if (scoped) {
      const answer = await subscriptionRoute(request, deps, scoped.scope, scoped.rest);
      if (answer) return answer;
    }
    throw new HttpError(404, 'Not Found', 'not_found');
  });
}
