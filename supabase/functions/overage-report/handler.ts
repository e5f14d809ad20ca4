/**
 * overage-report: bills the metered overage of closed usage periods (migration
 * 20261122006000). The cron job overage-report wakes it (app.kick_overage_report) while a charge
 * is due; only the service role may call it.
 *
 *   POST {}  → { reported, failed }: each claimed charge priced (shared/src/credits.ts
 *            overageAmountMinor: 2 per 100 units, pro-rated) and reported once to the
 *            subscription's provider, where it is a line of its own on the next invoice:
 *            Stripe: an invoice item on the subscription (the charge id as idempotency key, so a
 *            retry after a lost answer adds nothing); Paddle: a one-time charge billed with the
 *            next renewal. Paddle takes no idempotency key: the claim is recorded before the
 *            call (app.begin_overage_report), and a charge asked for before (a worker that died
 *            before recording it, an answer lost) is first looked for in the subscription's next
 *            transaction by its id in the custom data. A renewal billed in between would carry it
 *            off that list; the crash window is the call's own, far shorter than a period.
 */
import { overageAmountMinor } from '../../../shared/src/credits.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { requireEnv } from '../_shared/env.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { sql } from '../_shared/sql.ts';

export interface OverageCharge {
  id: string;
  account_id: string;
  billing_type: 1 | 2;
  billing_subscription_id: string;
  currency: string;
  period_starts_at: Date;
  period_ends_at: Date;
  total_units: string;
}

export interface ReportDeps {
  card: () => CardBilling;
  overlay: () => OverlayBilling;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/** The invoice line's text: what the amount is for, readable on the invoice and its PDF. */
export function overageDescription(charge: OverageCharge): string {
  const units = Number(charge.total_units).toLocaleString('en-US');
  return `Overage ${day(charge.period_starts_at)} to ${day(charge.period_ends_at)}: ${units} units over the plan limits`;
}

/**
 * Reports one charge; answers the provider's id of what it created. `retry`: the provider may
 * have billed it already (asked before, no answer recorded).
 */
export async function reportCharge(
  charge: OverageCharge,
  deps: ReportDeps,
  retry = false,
): Promise<string> {
  const amount = overageAmountMinor(Number(charge.total_units), charge.currency);
  const description = overageDescription(charge);
  const metadata = {
    overage_charge_id: charge.id,
    account_id: charge.account_id,
  };
  if (charge.billing_type === 1) {
    const item = await deps.card().addInvoiceItem({
      subscriptionId: charge.billing_subscription_id,
      amount,
      currency: charge.currency,
      description,
      periodStart: Math.floor(charge.period_starts_at.getTime() / 1000),
      periodEnd: Math.floor(charge.period_ends_at.getTime() / 1000),
      metadata,
      idempotencyKey: `overage-charge-${charge.id}`,
    });
    return item.id;
  }
  const overlay = deps.overlay();
  if (retry && (await overlay.hasPendingCharge(charge.billing_subscription_id, metadata)))
    return charge.billing_subscription_id;
  const subscription = await overlay.chargeOnce(charge.billing_subscription_id, {
    amount,
    currency: charge.currency.toUpperCase(),
    description,
    customData: metadata,
  });
  return subscription.id;
}

export function createOverageReporter(deps: ReportDeps) {
  return handler(async (request) => {
    if (request.method !== 'POST') {
      throw new HttpError(405, 'Use POST', 'method_not_allowed');
    }
    const key = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
    if (key !== requireEnv('SUPABASE_SERVICE_ROLE_KEY')) {
      throw new HttpError(403, 'Only the service role reports overage', 'forbidden');
    }
    const db = sql();
    const [settings] = await db<{ batch_size: number }[]>`
      select batch_size from app.overage_settings`;
    const claimed = await db<OverageCharge[]>`
      select id, account_id, billing_type, billing_subscription_id, currency::text as currency,
        period_starts_at, period_ends_at, total_units
      from app.claim_overage_charges(${settings?.batch_size ?? 20})`;
    let reported = 0;
    let failed = 0;
    // One at a time: a handful per period end, and a provider's rate limit is per account.
    for (const charge of claimed) {
      const amount = overageAmountMinor(Number(charge.total_units), charge.currency);
      try {
        // Committed before the provider is asked (Paddle's charge has no idempotency key).
        const [begun] = await db<{ retry: boolean }[]>`
          select app.begin_overage_report(${charge.id}) as retry`;
        const itemId = await reportCharge(charge, deps, begun?.retry ?? false);
        await db`select app.record_overage_report(${charge.id}, ${amount}, ${itemId}, null)`;
        reported++;
      } catch (error) {
        console.error(`overage-report: charge ${charge.id}:`, error);
        const message = error instanceof Error ? error.message : String(error);
        await db`select app.record_overage_report(${charge.id}, ${amount}, null, ${message})`;
        failed++;
      }
    }
    return json({ reported, failed });
  });
}

export const reportOverage = createOverageReporter({
  card: cardBillingFromEnv,
  overlay: overlayBillingFromEnv,
});
