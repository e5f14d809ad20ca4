/**
 * A subscription's life after checkout, for a person, a team or an organization (app-shell 4
 * and 7). `{scope}` is `settings`, `organization/{org}/team/{team}` or `organization/{org}`:
 *
 *   DELETE {scope}/subscription[/now] { billing_type }   cancel at the period end, or now
 *   PUT    {scope}/subscription/resume                    undo a cancel during the grace period
 *   PATCH  {scope}/subscription                           reactivate an ended plan (card on file)
 *   PUT    {scope}/subscription { billing_type, subscription, interval, currency, type }
 *          an upgrade now, prorated and invoiced by Stripe; a downgrade at the period end, as a
 *          subscription schedule (the pending downgrade)
 *   GET    {scope}/subscription/preview?subscription=&interval=&currency=
 *          what an update would charge now (Stripe's invoice preview), or when it would start
 *   DELETE {scope}/subscription/scheduled                 cancel the pending downgrade
 *
 * Each change is made at the provider and its answer stored at once (the webhooks that follow are
 * then stale or repeat it). Refusals: 402 payment declined (the portal sends the user to the
 * payment page), 406 with the reason (not eligible, same plan…), 5xx with the spec's "… failed"
 * message.
 *
 * A Paddle subscription (billing type 2) goes through the OverlayBilling adapter (paddle.ts):
 * an upgrade is prorated and charged now by Paddle; a downgrade waits in the subscription's
 * custom data (`scheduled_plan_price_id`, Paddle has no schedules) until applyDueDowngrades
 * swaps the item just before the period ends; reactivating an ended plan is a new checkout
 * (Paddle charges no saved card outside one), answered as `{ checkout }`.
 */
import type Stripe from 'stripe';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { HttpError, json } from '../_shared/http.ts';
import { plainJson, type Sql } from '../_shared/sql.ts';
import { MESSAGES } from '../../../shared/src/messages.ts';
import { classifyPlanChange } from '../../../shared/src/plan-change.ts';
import {
  billingAccount,
  scopeKey,
  subscriptionPagePath,
  type BillingAccount,
  type BillingScope,
} from './account.ts';
import {
  changePaddleSubscription,
  paddleCheckout,
  paddlePriceRequest,
  storePaddleSubscription,
} from './paddle.ts';
import { allowedReturnOrigin } from './return-origin.ts';
import {
  findPlanPrice,
  jsonBody,
  planPriceById,
  planMetadata,
  priceRequest,
  readBillingType,
  readOrder,
  type BillingType,
  type PlanOrder,
  type PlanPrice,
} from './order.ts';

export const NO_SUBSCRIPTION = 'You have no subscription to change.';
export const SAME_PLAN = 'You are already on this plan.';
export const NO_INTERVAL_DOWNGRADE = 'This plan cannot be moved from yearly to monthly billing.';
export const RESUME_FIRST = 'Resume your subscription before changing it.';
export const NOTHING_SCHEDULED = 'No plan change is scheduled.';
export const NOTHING_TO_REACTIVATE = 'There is no ended subscription to reactivate.';
export interface LifecycleDeps {
  billing: () => CardBilling;
  paddle: () => OverlayBilling;
  db: () => Sql;
  /** Where a Paddle checkout (reactivating) may return to: BILLING_RETURN_ORIGINS. */
  returnOrigins?: () => string;
}

// amount is a bigint, which postgres.js hands over as text; minor units fit a float8 exactly.
export const SUBSCRIPTION_COLUMNS =
  'id, account_id, name, interval, amount::float8 as amount, currency, billing_type, billing_status, ends_at, trial_ends_at, period_starts_at, period_ends_at';

/*
 * A plan subscription at a provider: a Stripe subscription (`sub_…`, never a future row; pending
 * downgrades are schedules, `sub_sched_…`) or a Paddle one.
 */
const PROVIDER_SUBSCRIPTION = `((s.billing_type = 2 and s.billing_id not like '%:scheduled')
  or (s.billing_type = 1
  and s.billing_id like 'sub\\_%' and s.billing_id not like 'sub\\_sched\\_%'))`;

/** A pending downgrade: a Stripe schedule's next phase, or a Paddle one waiting in custom data. */
const FUTURE_SUBSCRIPTION = `((billing_type = 1 and billing_id like 'sub\\_sched\\_%')
  or (billing_type = 2 and billing_id like '%:scheduled'))`;

interface CurrentRow {
  billing_id: string;
  billing_type: BillingType;
  name: string;
  interval: 'monthly' | 'yearly';
  amount: string;
  ends_at: Date | null;
}

/** The account's current provider subscription, not ended (a grace period counts). */
async function currentSubscription(db: Sql, accountId: string): Promise<CurrentRow | null> {
  const [row] = await db.unsafe<CurrentRow[]>(
    `select billing_id, billing_type, name, interval, amount::text, ends_at
     from public.subscriptions s
     where s.account_id = $1 and s.type = 'default' and ${PROVIDER_SUBSCRIPTION}
       and (s.ends_at is null or s.ends_at > now())
     order by s.created_at desc limit 1`,
    [accountId],
  );
  return row ?? null;
}

/** The current subscription, of the billing type the caller named when it named one. */
async function requireCurrent(
  db: Sql,
  accountId: string,
  billingType: BillingType | null = null,
): Promise<CurrentRow> {
  const row = await currentSubscription(db, accountId);
  if (!row || (billingType !== null && row.billing_type !== billingType))
    throw new HttpError(404, NO_SUBSCRIPTION, 'subscription_not_found');
  return row;
}

/*
 * Stored as of the current second: Stripe's event timestamps are whole seconds, and an event of
 * this same second may come from a change after this answer (the webhook applies the state it
 * fetches, so letting it through is safe); only events of earlier seconds are stale.
 */
async function storeSubscription(db: Sql, subscription: Stripe.Subscription) {
  await db`select app.apply_stripe_subscription(${db.json(plainJson(subscription))},
    date_trunc('second', now()))`;
}

async function storeSchedule(db: Sql, schedule: Stripe.SubscriptionSchedule) {
  await db`select app.apply_stripe_subscription_schedule(${db.json(plainJson(schedule))},
    date_trunc('second', now()))`;
}

/** The account's plan now and its pending downgrade, as the pages show them. */
async function state(db: Sql, accountId: string) {
  const [current] = await db.unsafe(
    `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions s
     where s.account_id = $1 and s.type = 'default' and ${PROVIDER_SUBSCRIPTION}
     order by (s.ends_at is null or s.ends_at > now()) desc, s.created_at desc limit 1`,
    [accountId],
  );
  const [future] = await db.unsafe(
    `select ${SUBSCRIPTION_COLUMNS} from public.subscriptions
     where account_id = $1 and type = 'default' and ${FUTURE_SUBSCRIPTION}
       and period_starts_at > now() and ends_at is null
     order by period_starts_at limit 1`,
    [accountId],
  );
  return { subscription: current ?? null, future: future ?? null };
}

/** Paddle's refusals of a charge: a declined card, or none to charge. */
const PADDLE_PAYMENT_CODES = new Set([
  'subscription_payment_declined',
  'subscription_missing_payment_method_cannot_update',
  'subscription_outstanding_transaction',
]);

/**
 * Stripe's card errors (a declined payment, or no card to charge) and Paddle's payment refusals
 * are the spec's 402.
 */
function paymentProblem(error: unknown): boolean {
  const stripeError = error as { type?: string; statusCode?: number; code?: string } | null;
  if (stripeError?.code && PADDLE_PAYMENT_CODES.has(stripeError.code)) return true;
  return (
    stripeError?.type === 'StripeCardError' ||
    stripeError?.statusCode === 402 ||
    (stripeError?.type === 'StripeInvalidRequestError' &&
      stripeError?.code === 'resource_missing' &&
      /payment (source|method)/i.test(String((error as Error).message)))
  );
}

const declined = () => new HttpError(402, MESSAGES.paymentDeclined, 'payment_declined');

/** Paddle's refusal while a refund it has not decided yet is open on the subscription. */
const refundPending = (error: unknown) =>
  (error as { code?: string } | null)?.code === 'subscription_outstanding_pending_refund';

/** Runs a provider call; a failure that is not ours to explain is the spec's "… failed". */
async function atProvider<T>(work: () => Promise<T>, failed: string, code: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (paymentProblem(error)) throw declined();
    if (refundPending(error))
      throw new HttpError(406, MESSAGES.subscriptionRefundPending, 'refund_pending');
    console.error(`billing: ${code}`, error);
    throw new HttpError(502, failed, code);
  }
}

/** The pending downgrade is dropped first: Stripe refuses other changes while a schedule steers. */
async function releaseSchedule(billing: CardBilling, db: Sql, subscriptionId: string) {
  const subscription = await billing.retrieveSubscription(subscriptionId);
  const scheduleId =
    typeof subscription.schedule === 'string' ? subscription.schedule : subscription.schedule?.id;
  if (!scheduleId) return subscription;
  const schedule = await billing.releaseSchedule(scheduleId);
  await storeSchedule(db, schedule);
  return billing.retrieveSubscription(subscriptionId);
}

async function cancel(
  account: BillingAccount,
  deps: LifecycleDeps,
  now: boolean,
  billingType: BillingType | null,
) {
  const db = deps.db();
  const row = await requireCurrent(db, account.accountId, billingType);
  if (row.billing_type === 2) {
    await atProvider(
      () =>
        changePaddleSubscription(db, deps.paddle(), row.billing_id, now ? 'cancel-now' : 'cancel'),
      MESSAGES.subscriptionUpdateFailed,
      'subscription_cancel_failed',
    );
    return json(await state(db, account.accountId));
  }
  const billing = deps.billing();
  const updated = await atProvider(
    async () => {
      await releaseSchedule(billing, db, row.billing_id);
      return now
        ? await billing.cancelNow(row.billing_id)
        : await billing.setCancelAtPeriodEnd(row.billing_id, true);
    },
    MESSAGES.subscriptionUpdateFailed,
    'subscription_cancel_failed',
  );
  await storeSubscription(db, updated);
  return json(await state(db, account.accountId));
}

async function resume(account: BillingAccount, deps: LifecycleDeps) {
  const db = deps.db();
  const row = await requireCurrent(db, account.accountId);
  if (row.billing_type === 2) {
    await atProvider(
      () => changePaddleSubscription(db, deps.paddle(), row.billing_id, 'resume'),
      MESSAGES.subscriptionResumeFailed,
      'subscription_resume_failed',
    );
    return json(await state(db, account.accountId));
  }
  const updated = await atProvider(
    () => deps.billing().setCancelAtPeriodEnd(row.billing_id, false),
    MESSAGES.subscriptionResumeFailed,
    'subscription_resume_failed',
  );
  await storeSubscription(db, updated);
  return json(await state(db, account.accountId));
}

/**
 * Paddle takes no payment for a new subscription outside its checkout: reactivating is a
 * checkout for the plan (no trial), which the portal opens as it opens any.
 */
async function reactivateThroughCheckout(
  request: Request,
  account: BillingAccount,
  deps: LifecycleDeps,
  price: PlanPrice,
) {
  const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins?.() ?? '');
  if (!origin)
    throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');
  if (!account.email)
    throw new HttpError(406, 'Your account needs an e-mail address to pay.', 'email_required');
  const checkout = await atProvider(
    () =>
      paddleCheckout(deps.db(), deps.paddle(), {
        accountId: account.accountId,
        email: account.email!,
        planPriceId: price.price_id,
        planName: price.plan_name,
        interval: price.interval,
        amount: Number(price.amount),
        currency: price.currency,
        trialDays: 0,
        origin,
        successPath: `${subscriptionPagePath(account.scope)}/success`,
        scopeKey: scopeKey(account.scope),
      }),
    MESSAGES.subscriptionReactivateFailed,
    'subscription_reactivate_failed',
  );
  return json({ checkout, ...(await state(deps.db(), account.accountId)) });
}

/**
 * An ended plan (cancelled now, or past its grace period) back: on the card on file (Stripe), or
 * through a new checkout (Paddle).
 */
async function reactivate(request: Request, account: BillingAccount, deps: LifecycleDeps) {
  const db = deps.db();
  if (await currentSubscription(db, account.accountId))
    throw new HttpError(406, 'Your subscription is still active.', 'subscription_active');
  const [ended] = await db.unsafe<
    { price_id: string; interval: 'monthly' | 'yearly'; billing_type: BillingType }[]
  >(
    `select s.price_id, s.interval, s.billing_type from public.subscriptions s
     where s.account_id = $1 and s.type = 'default' and ${PROVIDER_SUBSCRIPTION}
       and s.price_id is not null and s.ends_at <= now()
     order by s.ends_at desc limit 1`,
    [account.accountId],
  );
  const [customer] = await db<{ billing_id: string }[]>`
    select billing_id from public.billing_customers
    where account_id = ${account.accountId} and billing_type = ${ended?.billing_type ?? 1}`;
  if (!ended || !customer) throw new HttpError(404, NOTHING_TO_REACTIVATE, 'nothing_to_reactivate');
  const [plan] = await db<{ name: string; currency: string }[]>`
    select p.name, pp.currency from public.plan_prices pp join public.plans p on p.id = pp.plan_id
    where pp.id = ${ended.price_id}`;
  // The plan's price today (the old one may be retired).
  const price = await findPlanPrice(db, {
    name: plan!.name,
    interval: ended.interval,
    currency: plan!.currency,
  });
  await requireEligible(db, account, price);
  if (ended.billing_type === 2)
    return await reactivateThroughCheckout(request, account, deps, price);
  const created = await atProvider(
    () =>
      deps
        .billing()
        .subscribeAgain(
          customer.billing_id,
          priceRequest(price),
          planMetadata(account.accountId, price),
        ),
    MESSAGES.subscriptionReactivateFailed,
    'subscription_reactivate_failed',
  );
  await storeSubscription(db, created);
  return json(await state(db, account.accountId));
}

async function requireEligible(db: Sql, account: BillingAccount, price: PlanPrice) {
  const [fits] = await db<{ fits: boolean }[]>`
    select app.plan_fits_account(${account.accountId}, ${price.price_id}) as fits`;
  if (!fits?.fits) throw new HttpError(406, MESSAGES.notEligibleForPlan, 'not_eligible');
}

interface PlannedChange {
  row: CurrentRow;
  price: PlanPrice;
  change: 'upgrade' | 'downgrade';
}

/** Checks an update against the rules: same plan, eligibility, interval downgrades. */
async function planChange(
  db: Sql,
  account: BillingAccount,
  order: PlanOrder,
): Promise<PlannedChange> {
  const row = await requireCurrent(db, account.accountId);
  if (row.ends_at !== null) throw new HttpError(406, RESUME_FIRST, 'subscription_ending');
  const price = await findPlanPrice(db, order);
  const change = classifyPlanChange(
    { name: row.name, interval: row.interval, amount: Number(row.amount) },
    { name: price.plan_name, interval: price.interval, amount: Number(price.amount) },
  );
  if (change === 'same') throw new HttpError(406, SAME_PLAN, 'same_plan');
  if (
    row.name === price.plan_name &&
    row.interval === 'yearly' &&
    price.interval === 'monthly' &&
    !price.allow_interval_downgrade
  )
    throw new HttpError(406, NO_INTERVAL_DOWNGRADE, 'interval_downgrade_not_allowed');
  await requireEligible(db, account, price);
  return { row, price, change };
}

async function update(request: Request, account: BillingAccount, deps: LifecycleDeps) {
  const db = deps.db();
  const { row, price, change } = await planChange(db, account, readOrder(await jsonBody(request)));
  if (row.billing_type === 2) {
    await atProvider(
      () => changePaddlePlan(db, deps.paddle(), account.accountId, row.billing_id, price, change),
      MESSAGES.subscriptionUpdateFailed,
      'subscription_update_failed',
    );
    return json({ change, ...(await state(db, account.accountId)) });
  }
  const billing = deps.billing();
  const metadata = planMetadata(account.accountId, price);
  if (change === 'upgrade') {
    const updated = await atProvider(
      async () => {
        const subscription = await releaseSchedule(billing, db, row.billing_id);
        return await billing.changePrice(subscription, priceRequest(price), metadata);
      },
      MESSAGES.subscriptionUpdateFailed,
      'subscription_update_failed',
    );
    await storeSubscription(db, updated);
    return json({ change, ...(await state(db, account.accountId)) });
  }
  const schedule = await atProvider(
    async () => {
      const subscription = await releaseSchedule(billing, db, row.billing_id);
      return await billing.scheduleChange(subscription, priceRequest(price), metadata);
    },
    MESSAGES.subscriptionUpdateFailed,
    'subscription_update_failed',
  );
  await storeSchedule(db, schedule);
  return json({ change, ...(await state(db, account.accountId)) });
}

async function preview(request: Request, account: BillingAccount, deps: LifecycleDeps) {
  const db = deps.db();
  const query = new URL(request.url).searchParams;
  const { row, price, change } = await planChange(db, account, {
    ...readOrder({
      subscription: query.get('subscription') ?? '',
      interval: query.get('interval') ?? undefined,
      currency: query.get('currency') ?? undefined,
    }),
  });
  const plan = {
    name: price.plan_name,
    interval: price.interval,
    amount: Number(price.amount),
    currency: price.currency,
  };
  if (row.billing_type === 2)
    return json(
      await atProvider(
        () => previewPaddleChange(deps.paddle(), row.billing_id, price, change, plan),
        MESSAGES.subscriptionUpdateFailed,
        'subscription_preview_failed',
      ),
    );
  const billing = deps.billing();
  const subscription = await atProvider(
    () => billing.retrieveSubscription(row.billing_id),
    MESSAGES.subscriptionUpdateFailed,
    'subscription_preview_failed',
  );
  if (change === 'downgrade') {
    const periodEnd = subscription.items.data[0]?.current_period_end;
    return json({
      change,
      plan,
      starts_at: periodEnd ? new Date(periodEnd * 1000).toISOString() : null,
    });
  }
  const invoice = await atProvider(
    () => billing.previewPriceChange(subscription, priceRequest(price)),
    MESSAGES.subscriptionUpdateFailed,
    'subscription_preview_failed',
  );
  return json({
    change,
    plan,
    amount_due: invoice.amount_due,
    currency: invoice.currency.toUpperCase(),
    lines: invoice.lines.data.map((line) => ({
      description: line.description,
      amount: line.amount,
    })),
  });
}

// --- Paddle plan changes ----------------------------------------------------------------------

/** Our keys in a Paddle subscription's custom data. */
type PaddleCustomData = Record<string, string>;

const customDataOf = (value: unknown): PaddleCustomData =>
  Object.fromEntries(
    Object.entries((value ?? {}) as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );

/**
 * An upgrade: the item moves to the new price now, prorated and charged by Paddle (a refused
 * charge changes nothing: the 402). A downgrade: recorded in the custom data as the pending one,
 * the plan stays until the period ends.
 */
async function changePaddlePlan(
  db: Sql,
  paddle: OverlayBilling,
  accountId: string,
  subscriptionId: string,
  price: PlanPrice,
  change: 'upgrade' | 'downgrade',
) {
  const current = await paddle.retrieveSubscription(subscriptionId);
  const { scheduled_plan_price_id: _dropped, ...customData } = customDataOf(current.customData);
  const updated =
    change === 'upgrade'
      ? await paddle.changePrice(
          subscriptionId,
          paddlePriceRequest(price),
          { ...customData, account_id: accountId, plan_price_id: price.price_id },
          'prorated_immediately',
        )
      : await paddle.setCustomData(subscriptionId, {
          ...customData,
          account_id: accountId,
          scheduled_plan_price_id: price.price_id,
        });
  await storePaddleSubscription(db, updated);
}

async function dropPaddleDowngrade(db: Sql, paddle: OverlayBilling, subscriptionId: string) {
  const current = await paddle.retrieveSubscription(subscriptionId);
  const { scheduled_plan_price_id: scheduled, ...customData } = customDataOf(current.customData);
  if (!scheduled) throw new HttpError(404, NOTHING_SCHEDULED, 'nothing_scheduled');
  await storePaddleSubscription(db, await paddle.setCustomData(subscriptionId, customData));
}

/** What a Paddle change would do: an upgrade's charge now as Paddle prorates it. */
async function previewPaddleChange(
  paddle: OverlayBilling,
  subscriptionId: string,
  price: PlanPrice,
  change: 'upgrade' | 'downgrade',
  plan: { name: string; interval: string; amount: number; currency: string },
) {
  if (change === 'downgrade') {
    const current = await paddle.retrieveSubscription(subscriptionId);
    return { change, plan, starts_at: current.currentBillingPeriod?.endsAt ?? null };
  }
  const preview = await paddle.previewPriceChange(
    subscriptionId,
    paddlePriceRequest(price),
    'prorated_immediately',
  );
  const summary = preview.updateSummary;
  const totals = preview.immediateTransaction?.details.totals;
  const currency = (totals?.currencyCode ?? price.currency).toUpperCase();
  const lines = [];
  if (summary && Number(summary.credit.amount) > 0)
    lines.push({
      description: 'Credit for the unused time',
      amount: -Number(summary.credit.amount),
    });
  for (const line of preview.immediateTransaction?.details.lineItems ?? [])
    lines.push({
      description: `${line.product?.name ?? plan.name}${line.proration ? ' (prorated)' : ''}`,
      amount: Number(line.totals?.subtotal ?? 0),
    });
  return {
    change,
    plan,
    amount_due: Number(totals?.grandTotal ?? 0),
    currency,
    lines,
  };
}

/**
 * Pending Paddle downgrades whose period ends within `leadMs`: the item is swapped to the new
 * price without a charge, so the renewal bills the new plan (run by the service role, from cron).
 */
export async function applyDueDowngrades(
  db: Sql,
  paddle: OverlayBilling,
  leadMs: number,
): Promise<number> {
  const due = await db<{ billing_id: string; account_id: string; price_id: string }[]>`
    select split_part(billing_id, ':', 1) as billing_id, account_id, price_id::text
    from public.subscriptions
    where billing_type = 2 and billing_id like '%:scheduled' and ends_at is null
      and period_starts_at <= now() + ${leadMs} * interval '1 millisecond'`;
  let applied = 0;
  for (const row of due) {
    const price = await planPriceById(db, row.price_id);
    const current = await paddle.retrieveSubscription(row.billing_id);
    const { scheduled_plan_price_id: scheduled, ...customData } = customDataOf(current.customData);
    // Dropped or changed at Paddle meanwhile: its own notification says so.
    if (!price || scheduled !== row.price_id) continue;
    const updated = await paddle.changePrice(
      row.billing_id,
      paddlePriceRequest(price),
      { ...customData, account_id: row.account_id, plan_price_id: price.price_id },
      'do_not_bill',
    );
    await storePaddleSubscription(db, updated);
    applied++;
  }
  return applied;
}

async function cancelScheduled(account: BillingAccount, deps: LifecycleDeps) {
  const db = deps.db();
  const row = await requireCurrent(db, account.accountId);
  if (row.billing_type === 2) {
    await atProvider(
      () => dropPaddleDowngrade(db, deps.paddle(), row.billing_id),
      MESSAGES.subscriptionUpdateFailed,
      'subscription_update_failed',
    );
    return json(await state(db, account.accountId));
  }
  const billing = deps.billing();
  const subscription = await atProvider(
    () => billing.retrieveSubscription(row.billing_id),
    MESSAGES.subscriptionUpdateFailed,
    'subscription_update_failed',
  );
  const scheduleId =
    typeof subscription.schedule === 'string' ? subscription.schedule : subscription.schedule?.id;
  if (!scheduleId) throw new HttpError(404, NOTHING_SCHEDULED, 'nothing_scheduled');
  const released = await atProvider(
    () => billing.releaseSchedule(scheduleId),
    MESSAGES.subscriptionUpdateFailed,
    'subscription_update_failed',
  );
  await storeSchedule(db, released);
  return json(await state(db, account.accountId));
}

/** Routes `{scope}/subscription{rest}`; null when the method and rest name no action. */
export async function subscriptionRoute(
  request: Request,
  deps: LifecycleDeps,
  scope: BillingScope,
  rest: string,
): Promise<Response | null> {
  const route = `${request.method} ${rest}`;
  const known = [
    'GET ',
    'DELETE ',
    'DELETE /now',
    'PUT /resume',
    'PATCH ',
    'PUT ',
    'GET /preview',
    'DELETE /scheduled',
  ];
  if (!known.includes(route)) return null;
  const account = await billingAccount(request, deps.db(), scope);
  switch (route) {
    case 'GET ':
      return json(await state(deps.db(), account.accountId));
    case 'DELETE ':
    case 'DELETE /now':
      return await cancel(
        account,
        deps,
        route === 'DELETE /now',
        readBillingType(await jsonBody(request)),
      );
    case 'PUT /resume':
      return await resume(account, deps);
    case 'PATCH ':
      return await reactivate(request, account, deps);
    case 'PUT ':
      return await update(request, account, deps);
    case 'GET /preview':
      return await preview(request, account, deps);
    default:
      return await cancelScheduled(account, deps);
  }
}
