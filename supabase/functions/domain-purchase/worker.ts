/**
 * POST /domain-purchase/process (service role; Supabase Cron through app.kick_domain_purchases):
 * the names waiting for the registrar.
 *
 *   registering     DNS zone created (we run the name servers) and kept on the row
 *                   (app.record_domain_zone), name registered with them, the verification
 *                   records set in the zone and checked by a real DNS query, then
 *                   app.finish_domain_registration makes it a branded domain of the account
 *                   (verified when the check passed; otherwise the verifier keeps trying).
 *                   A later attempt (the registrar was unreachable) uses the kept zone: the
 *                   provider refuses a second one, and the registrar's idempotent answer carries
 *                   the first one's name servers. A zone the provider made for an attempt
 *                   that never recorded it (a crash, a lost answer) is found by its name and
 *                   taken, unless public.dns_zones lists it as something else's.
 *                   A zone that cannot be had, or a registrar that cannot be reached, is tried
 *                   again up to MAX_ATTEMPTS claims, then the name fails with the reason.
 *                   A refusal fails the name with the registrar's reason and removes the zone;
 *                   an order left with no name cancels its subscription (nothing renews).
 *   renewing        the paid renewal is renewed at the registrar (one year); a refusal owes
 *                   the renewal's price for the name back (refund, then renewal_failed).
 *   renewal_failed  the owner is mailed, then notified (app.domain_renewal_notified).
 *   refund          a paid name that was not registered (refused by the registrar, or added as
 *                   someone's branded domain meanwhile): its order item's amount is refunded
 *                   on the order's first invoice (idempotent per name; a Stripe refund, or
 *                   for a Paddle order a refund adjustment on its transaction), recorded
 *                   (app.record_domain_refund), and the order's yearly subscription is lowered
 *                   to the names still alive, or cancelled when none is. A paid renewal the
 *                   registrar refused is refunded the same way on the renewal's own invoice
 *                   (the subscription is left as it is), before the owner is told.
 *   stop_renewal    the name's order was refunded in full (staff, or at the provider; the
 *                   trigger of 20261122007900 marks its names): the order's yearly subscription
 *                   is cancelled now, so nothing is billed again. A registered name stays
 *                   registered and branded until it expires; a name that was still registering
 *                   was cancelled by the trigger and is never registered. Nothing is refunded
 *                   here: the order's money went back in full already.
 *   remove_zone     a name that was not registered (failed, or cancelled by its refund) still
 *                   has its zone: it is removed at the provider, then from the row.
 *
 * The registrar or a payment provider being unreachable leaves the row for a later run.
 */
import type { BillingDocuments } from '../_shared/billing/documents.ts';
import type { OverlayBilling, RefundItem } from '../_shared/billing/overlay-provider.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import type { MailSender } from '../_shared/mail/sender.ts';
import type { Sql } from '../_shared/sql.ts';
import { verificationRecordName } from '../../../shared/src/domain-verification.ts';
import { checkDomain, type Lookup, type VerifierConfig } from '../domain-verify/dns.ts';
import { changePaddleSubscription } from '../billing/paddle.ts';
import {
  type DnsProvider,
  DnsProviderError,
  type DnsZone,
  ZONE_EXISTS,
} from '../kiosk-dns/provider.ts';
import { type PurchaseRegistrar, registrarCode } from './registrar-port.ts';

export interface WorkerDeps {
  db: Sql;
  registrar: PurchaseRegistrar;
  dns: DnsProvider;
  verifier: VerifierConfig;
  billing: () => CardBilling;
  documents: () => BillingDocuments;
  /** Billing type 2, whose orders' subscriptions are Paddle's. */
  overlay: () => OverlayBilling;
  mail: () => MailSender;
  lookup?: Lookup;
}

interface Work {
  id: string;
  account_id: string;
  order_id: string;
  domain: string;
  years: number;
  status: 'registering' | 'renewing' | 'renewal_failed' | 'refund' | 'stop_renewal' | 'remove_zone';
  billing_subscription_id: string | null;
  renewal_order_id: string | null;
  owner_email: string | null;
  /** The zone made for the name by an earlier attempt, or one still to be removed. */
  zone_id: string | null;
}

const BATCH = 10;
/**
 * Tries of a name's registration (a registrar that cannot be reached, a zone that cannot be
 * made) before the name is failed, and so refunded.
 */
export const MAX_ATTEMPTS = 20;

const ZONE_NOT_CREATED = 'The DNS zone could not be created.';

/**
 * The provider has a zone for the name that public.dns_zones lists as something else's (made on
 * the kiosk's zone screen, or another order's still being removed): it is not taken.
 */
class ZoneHeldElsewhere extends Error {
  constructor(domain: string) {
    super(
      `The DNS zone could not be created: ${domain} already has a zone in our DNS account, ` +
        `held for something else.`,
    );
    this.name = 'ZoneHeldElsewhere';
  }
}

const randomToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

const refusal = (error: unknown, what: string) => {
  const code = registrarCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code === 'unavailable')
    return `The registrar refused the ${what}: the name is not available.`;
  if (code === 'invalid') return `The registrar refused the ${what}: ${reason}`;
  if (code === 'payment') return `The registrar refused the ${what} (payment): ${reason}`;
  return `The registrar refused the ${what}: ${reason}`;
};

async function register(work: Work, deps: WorkerDeps): Promise<string> {
  const { db, dns } = deps;
  // A name added as someone's branded domain since the checkout is not registered: failed with
  // the reason (and refunded), never retried.
  const [blocked] = await db<{ problem: string | null }[]>`
    select app.domain_registration_blocked(${work.domain}) as problem`;
  if (blocked?.problem) return await failName(work, blocked.problem, deps);
  let zone: DnsZone | null;
  try {
    zone = await zoneFor(work, deps);
  } catch (error) {
    console.error(`domain-purchase: zone for ${work.domain}`, error);
    const problem = error instanceof ZoneHeldElsewhere ? error.message : ZONE_NOT_CREATED;
    if (await triesLeft(work, deps)) {
      await db`select app.release_domain_work(${work.id}, ${problem})`;
      return 'retry';
    }
    // A zone kept on the row is left there: the failed name's remove_zone work takes it.
    return await failName(work, `${problem} The name was not registered.`, deps);
  }
  // The order may have been refunded since the claim: the name is not bought for a customer
  // who has their money back, and the zone goes as a refused name's does.
  if (!zone || (await refundedMeanwhile(work, deps))) {
    if (zone) await removeZone(work, zone.id, deps);
    return 'stale';
  }
  let expireDate: string;
  try {
    const registered = await deps.registrar.register({
      domainName: work.domain,
      years: work.years,
      nameservers: zone.nameServers,
      // A retry after a lost answer gets the first registration back, not a second charge.
      idempotencyKey: `register-${work.id}`,
    });
    expireDate = registered.domain.expireDate;
  } catch (error) {
    const code = registrarCode(error);
    if ((code === 'unreachable' || code === null) && (await triesLeft(work, deps))) {
      await db`select app.release_domain_work(${work.id}, ${'Waiting for the registrar.'})`;
      console.error(`domain-purchase: register ${work.domain}`, error);
      return 'retry';
    }
    const failed = await failName(work, refusal(error, 'registration'), deps);
    await removeZone(work, zone.id, deps);
    return failed;
  }

  // Our zone, our records: what the verifier asks for, set for the customer.
  const token = randomToken();
  let verified = false;
  try {
    await dns.putRecord(zone, {
      name: verificationRecordName(work.domain),
      type: 'TXT',
      value: token,
    });
    if (deps.verifier.addresses.length > 0) {
      for (const address of deps.verifier.addresses)
        await dns.putRecord(zone, {
          name: work.domain,
          type: address.includes(':') ? 'AAAA' : 'A',
          value: address,
        });
    } else {
      await dns.putRecord(zone, {
        name: work.domain,
        type: 'CNAME',
        value: deps.verifier.cnameTarget,
      });
    }
    const outcome = await checkDomain(work.domain, token, deps.verifier, deps.lookup);
    verified = outcome.passed;
    if (!outcome.passed)
      console.error(`domain-purchase: ${work.domain} not verified yet (${outcome.problem})`);
  } catch (error) {
    // Registered and paid: the domain is kept, pending; the verifier keeps looking.
    console.error(`domain-purchase: records of ${work.domain}`, error);
  }
  const [done] = await db<{ result: string }[]>`
    select app.finish_domain_registration(${work.id}, true, ${expireDate}, null, ${zone.id},
      ${zone.nameServers}, ${token}, ${verified}) as result`;
  if (done?.result === 'taken') {
    // Someone added the name meanwhile: it is failed (and refunded); our zone goes.
    await removeZone(work, zone.id, deps);
    await cancelIfNothingLeft(work, deps);
    return 'failed';
  }
  if (done?.result === 'stale' && (await refundedMeanwhile(work, deps))) {
    // Refunded while the registrar was asked: the name is not the customer's, so neither is the
    // zone. The registration itself cannot be taken back: the row says so, with its expiry.
    console.error(`domain-purchase: ${work.domain} registered after its order was refunded`);
    await removeZone(work, zone.id, deps);
    await db`select app.record_registration_after_refund(${work.id}, ${expireDate})`;
  }
  return done?.result ?? 'stale';
}

/**
 * The name fails with `problem`, what its owner reads (its refund is the refund work's); an order
 * left with no name is cancelled.
 */
async function failName(work: Work, problem: string, deps: WorkerDeps): Promise<'failed'> {
  await deps.db`
    select app.finish_domain_registration(${work.id}, false, null, ${problem},
      null, null, null, false)`;
  await cancelIfNothingLeft(work, deps);
  return 'failed';
}

/** Whether the name's claim (app.claim_domain_work counts them) leaves it another try. */
async function triesLeft(work: Work, deps: WorkerDeps): Promise<boolean> {
  const [row] = await deps.db<{ attempts: number }[]>`
    select attempts from public.purchased_domains where id = ${work.id}`;
  return (row?.attempts ?? 0) < MAX_ATTEMPTS;
}

/**
 * The name's zone: the one an earlier attempt made, while the provider has it; otherwise a new
 * one (or the one a lost attempt made), kept on the row before anything else is asked of it.
 * Null when the name stopped registering meanwhile (the new zone is removed again).
 */
async function zoneFor(work: Work, deps: WorkerDeps): Promise<DnsZone | null> {
  const kept = work.zone_id ? await deps.dns.getZone(work.zone_id) : null;
  if (kept) return kept;
  const zone = await createOrAdopt(work, deps);
  const [row] = await deps.db<{ result: string }[]>`
    select app.record_domain_zone(${work.id}, ${zone.id}, ${zone.nameServers}) as result`;
  if (row?.result === 'recorded') return zone;
  await deps.dns.deleteZone(zone.id).catch((error: unknown) => {
    console.error(`domain-purchase: unrecorded zone ${zone.id} of ${work.domain}`, error);
  });
  return null;
}

/**
 * A new zone for the name. A refusal because the name has one already is, unless that zone is
 * listed as something else's, the trace of an attempt that made it and never recorded it (a crash
 * or a lost answer between createZone and app.record_domain_zone): that zone is the name's and
 * is taken, or the provider's refusal would fail every later attempt.
 */
async function createOrAdopt(work: Work, deps: WorkerDeps): Promise<DnsZone> {
  try {
    return await deps.dns.createZone(work.domain);
  } catch (error) {
    if (!(error instanceof DnsProviderError && error.status === ZONE_EXISTS)) throw error;
    const found = await deps.dns.findZone(work.domain);
    if (!found) throw error;
    // Ours is none listed, or the row of the name's earlier zone (one the provider no longer
    // had), which app.record_domain_zone replaces. A listing of the found zone itself, or a live
    // one of the name, is staff's (the kiosk's zone screen) or another order's.
    const [claim] = await deps.db<{ zone_id: string }[]>`
      select zone_id from public.dns_zones
      where (zone_id = ${found.id} or (name = ${work.domain} and status <> 'deleted'))
        and zone_id is distinct from ${work.zone_id}`;
    if (claim) throw new ZoneHeldElsewhere(work.domain);
    console.error(`domain-purchase: ${work.domain} takes the unrecorded zone ${found.id}`);
    return found;
  }
}

/**
 * The zone of a name that was not registered, removed at the provider and then from the row.
 * A provider that cannot be reached leaves it on the row, which makes it due again (remove_zone).
 */
async function removeZone(work: Work, zoneId: string, deps: WorkerDeps): Promise<boolean> {
  try {
    await deps.dns.deleteZone(zoneId);
  } catch (error) {
    console.error(`domain-purchase: remove the zone of ${work.domain}`, error);
    return false;
  }
  await deps.db`select app.domain_zone_removed(${work.id}, ${zoneId})`;
  return true;
}

/** remove_zone: a zone left behind by a name that was not registered. */
async function removeLeftZone(work: Work, deps: WorkerDeps): Promise<string> {
  if (work.zone_id && (await removeZone(work, work.zone_id, deps))) return 'zone_removed';
  await releaseAsItIs(work, deps);
  return 'retry';
}

/** The row left for a later run, its problem (what the customer reads) unchanged. */
async function releaseAsItIs(work: Work, deps: WorkerDeps): Promise<void> {
  const [row] = await deps.db<{ problem: string | null }[]>`
    select problem from public.purchased_domains where id = ${work.id}`;
  await deps.db`select app.release_domain_work(${work.id}, ${row?.problem ?? null})`;
}

/** The name was cancelled because its order was refunded in full (20261122007900). */
async function refundedMeanwhile(work: Work, deps: WorkerDeps): Promise<boolean> {
  const [row] = await deps.db<{ refunded: boolean }[]>`
    select status = 'cancelled' and renewal_stop is not null as refunded
    from public.purchased_domains where id = ${work.id}`;
  return row?.refunded === true;
}

interface RefundTarget {
  invoice_id: string | null;
  amount: string;
  currency: string;
  reason: string | null;
  /** Set when the refund is of a refused renewal: the renewal's order. */
  renewal_order_id: string | null;
}

/** A failed paid name's money back, then the order's renewal price without it. */
async function refund(work: Work, deps: WorkerDeps): Promise<string> {
  const { db } = deps;
  const [target] = await db<RefundTarget[]>`
    select invoice_id, amount::text, currency, reason, renewal_order_id
    from app.domain_refund_target(${work.id})`;
  if (!target) return 'stale';
  if (!target.invoice_id) {
    // The first invoice's webhook has not arrived yet.
    await db`select app.release_domain_work(${work.id}, ${target.reason})`;
    return 'retry';
  }
  let refundId: string;
  try {
    const paddle = (await billingTypeOf(work, deps)) === 2;
    const renewal = target.renewal_order_id;
    refundId = paddle
      ? await refundPaddle(work, target.invoice_id, target, deps)
      : (
          await deps.documents().refundInvoice(target.invoice_id, target.reason, {
            amount: Number(target.amount),
            // Once per name, and once per renewal of it.
            idempotencyKey: renewal
              ? `domain-renewal-refund-${work.id}-${renewal}`
              : `domain-refund-${work.id}`,
          })
        ).id;
    // Before the refund is recorded, so a failure here retries both (the refund answers the
    // first one again, the price is compared first). A refused renewal keeps its name on the
    // subscription: the registrar may take the next one.
    if (!renewal) await lowerRenewal(work, deps, paddle);
  } catch (error) {
    console.error(`domain-purchase: refund of ${work.domain}`, error);
    await db`select app.release_domain_work(${work.id}, ${target.reason})`;
    return 'retry';
  }
  await db`select app.record_domain_refund(${work.id}, ${refundId})`;
  return 'refunded';
}

async function billingTypeOf(work: Work, deps: WorkerDeps): Promise<number> {
  const [order] = await deps.db<{ billing_type: number }[]>`
    select billing_type from public.orders where id = ${work.order_id}`;
  return order?.billing_type ?? 1;
}

/**
 * Billing type 2: a refund adjustment on the order's Paddle transaction. Paddle takes no
 * idempotency key, so the name's own refund is looked for first (its reason names the domain,
 * which is once per order): a retry after a lost answer or a failed renewal change finds it
 * instead of refunding twice.
 */
async function refundPaddle(
  work: Work,
  transactionId: string,
  target: RefundTarget,
  deps: WorkerDeps,
): Promise<string> {
  const overlay = deps.overlay();
  const what = target.renewal_order_id ? `${work.domain} renewal` : work.domain;
  const reason = `${what}: ${target.reason ?? 'not registered'}`.slice(0, 500);
  const earlier = (await overlay.refunds(transactionId)).filter(
    (adjustment) => adjustment.status !== 'rejected',
  );
  const done = earlier.find((adjustment) => adjustment.reason === reason);
  if (done) return done.id;
  const transaction = await overlay.retrieveTransaction(transactionId);
  const items = paddleRefundItems(
    transaction.details?.lineItems ?? [],
    earlier.flatMap((adjustment) => adjustment.items),
    work.domain,
    Number(target.amount),
  );
  return (await overlay.refund(transactionId, reason, items)).id;
}

/**
 * Spreads a name's refund over the transaction's line items, each up to what is left of it: the
 * name's own extra years first (`<domain>: N more years`), then the shared yearly item.
 */
export function paddleRefundItems(
  lines: { id: string; totals: { total: string } | null; product: { name: string } | null }[],
  refunded: { itemId: string; amount?: string | null }[],
  domain: string,
  amount: number,
): RefundItem[] {
  const own = (line: (typeof lines)[number]) => line.product?.name.startsWith(`${domain}: `);
  const ordered = [...lines.filter(own), ...lines.filter((line) => !own(line))];
  const items: RefundItem[] = [];
  let owed = amount;
  for (const line of ordered) {
    if (owed <= 0) break;
    const taken = refunded
      .filter((item) => item.itemId === line.id)
      .reduce((sum, item) => sum + Number(item.amount ?? 0), 0);
    const part = Math.min(owed, Number(line.totals?.total ?? 0) - taken);
    if (part <= 0) continue;
    items.push({ itemId: line.id, amount: part });
    owed -= part;
  }
  if (owed > 0) throw new Error(`${domain}: ${owed} more than the transaction has left to refund`);
  return items;
}

/**
 * The order's yearly subscription is billed for the names still alive only. Under a lock per
 * order, so two workers refunding two names of it leave the lower price.
 */
async function lowerRenewal(work: Work, deps: WorkerDeps, paddle: boolean): Promise<void> {
  if (!work.billing_subscription_id) return;
  const subscriptionId = work.billing_subscription_id;
  await deps.db.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`domain-renewal:${work.order_id}`}, 0))`;
    const [row] = await tx<{ amount: string }[]>`
        select app.domain_order_renewal_amount(${work.order_id})::text as amount`;
    const amount = Number(row?.amount ?? 0);
    if (paddle) {
      await lowerPaddleRenewal(work, deps, subscriptionId, amount);
      return;
    }
    const billing = deps.billing();
    const subscription = await billing.retrieveSubscription(subscriptionId);
    if (subscription.status === 'canceled') return;
    if (amount === 0) {
      await billing.cancelNow(subscriptionId);
      return;
    }
    const item = subscription.items.data[0];
    if (!item || item.price.unit_amount === amount) return;
    await billing.setRenewalPrice(subscription, {
      unitAmount: amount,
      currency: item.price.currency,
      interval: 'year',
      productName: `Domains of order ${work.order_id}`,
    });
  });
}

/** The Paddle side of lowerRenewal: the item's price swapped without a charge (do_not_bill). */
async function lowerPaddleRenewal(
  work: Work,
  deps: WorkerDeps,
  subscriptionId: string,
  amount: number,
): Promise<void> {
  const overlay = deps.overlay();
  const subscription = await overlay.retrieveSubscription(subscriptionId);
  if (subscription.status === 'canceled') return;
  if (amount === 0) {
    await changePaddleSubscription(deps.db, overlay, subscriptionId, 'cancel-now');
    return;
  }
  const item = subscription.items[0];
  if (!item || item.price.unitPrice.amount === String(amount)) return;
  const customData = Object.fromEntries(
    Object.entries(subscription.customData ?? {}).map(([key, value]) => [key, String(value)]),
  );
  await overlay.changePrice(
    subscriptionId,
    {
      unitAmount: amount,
      currency: item.price.unitPrice.currencyCode,
      interval: 'year',
      productName: item.product?.name ?? `Domains of order ${work.order_id}`,
      priceName: item.price.name ?? 'Domains (yearly)',
    },
    customData,
    'do_not_bill',
  );
}

/** An order whose names all failed is cancelled: its subscription must not renew anything. */
async function cancelIfNothingLeft(work: Work, deps: WorkerDeps): Promise<void> {
  const [order] = await deps.db<{ status: number; billing_type: number }[]>`
    select status, billing_type from public.orders where id = ${work.order_id}`;
  if (order?.status !== 49) return;
  try {
    await cancelRenewalNow(work, order.billing_type, deps);
  } catch (error) {
    console.error(`domain-purchase: cancel ${work.billing_subscription_id}`, error);
  }
}

/**
 * The order's yearly subscription cancelled at once at its provider. One already cancelled (a
 * retry after a lost answer, another name of the order first) is left alone: cancelling it again
 * is refused by the providers.
 */
async function cancelRenewalNow(work: Work, billingType: number, deps: WorkerDeps): Promise<void> {
  const subscriptionId = work.billing_subscription_id;
  if (!subscriptionId) return;
  if (billingType === 2) {
    const overlay = deps.overlay();
    if ((await overlay.retrieveSubscription(subscriptionId)).status === 'canceled') return;
    await changePaddleSubscription(deps.db, overlay, subscriptionId, 'cancel-now');
    return;
  }
  const billing = deps.billing();
  if ((await billing.retrieveSubscription(subscriptionId)).status === 'canceled') return;
  await billing.cancelNow(subscriptionId);
}

/** A refunded order's name: its renewal stopped, retried until the provider has answered. */
async function stopRenewal(work: Work, deps: WorkerDeps): Promise<string> {
  try {
    await cancelRenewalNow(work, await billingTypeOf(work, deps), deps);
  } catch (error) {
    console.error(`domain-purchase: stop the renewal of ${work.domain}`, error);
    await releaseAsItIs(work, deps);
    return 'retry';
  }
  const [row] = await deps.db<{ result: string | null }[]>`
    select app.domain_renewal_stopped(${work.id}) as result`;
  return row?.result ?? 'stale';
}

async function renew(work: Work, deps: WorkerDeps): Promise<string> {
  const { db } = deps;
  try {
    const renewed = await deps.registrar.renew({
      domainName: work.domain,
      years: 1,
      idempotencyKey: `renew-${work.id}-${work.renewal_order_id ?? ''}`,
    });
    const [row] = await db<{ result: string }[]>`
      select app.finish_domain_renewal(${work.id}, true, ${renewed.domain.expireDate}, null) as result`;
    return row?.result ?? 'stale';
  } catch (error) {
    if (registrarCode(error) === 'unreachable') {
      await db`select app.release_domain_work(${work.id}, ${'Waiting for the registrar.'})`;
      return 'retry';
    }
    const [row] = await db<{ result: string }[]>`
      select app.finish_domain_renewal(${work.id}, false, null, ${refusal(error, 'renewal')}) as result`;
    return row?.result ?? 'stale';
  }
}

async function notifyOwner(work: Work, deps: WorkerDeps): Promise<string> {
  // A renewal the registrar refused was paid, then refunded: nothing for the owner to pay.
  const [row] = await deps.db<
    { problem: string | null; expires_at: Date | null; refunded: string | null }[]
  >`
    select d.problem, d.expires_at,
      (select nullif(i.refunded_amount, 0)::text from public.order_items i
       where i.order_id = d.renewal_order_id and i.kind = 'domain'
         and i.description = 'Renewal: ' || d.domain::text limit 1) as refunded
    from public.purchased_domains d where d.id = ${work.id}`;
  if (work.owner_email) {
    const expires = row?.expires_at ? row.expires_at.toISOString().slice(0, 10) : 'soon';
    const text =
      `The renewal of ${work.domain} did not go through. ${row?.problem ?? ''}\n\n` +
      `The domain expires on ${expires}; after that its short links stop working. ` +
      (row?.refunded
        ? `Nothing was charged for this renewal in the end: its payment went back to you.`
        : `Update your payment method in your settings so the renewal can be paid.`);
    try {
      await deps.mail().send({
        to: work.owner_email,
        subject: `Action needed: ${work.domain} was not renewed`,
        text,
        html: `<p>${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('\n\n', '</p><p>')}</p>`,
      });
    } catch (error) {
      await deps.db`select app.release_domain_work(${work.id}, ${row?.problem ?? null})`;
      console.error(`domain-purchase: renewal mail for ${work.domain}`, error);
      return 'retry';
    }
  }
  await deps.db`select app.domain_renewal_notified(${work.id})`;
  return 'notified';
}

export async function processDomainWork(deps: WorkerDeps): Promise<Record<string, number>> {
  const claimed = await deps.db<Work[]>`
    select id, account_id, order_id, domain, years, status, billing_subscription_id,
      renewal_order_id, owner_email, zone_id
    from app.claim_domain_work(${BATCH})`;
  const counts: Record<string, number> = {};
  for (const work of claimed) {
    let result: string;
    try {
      result =
        work.status === 'registering'
          ? await register(work, deps)
          : work.status === 'renewing'
            ? await renew(work, deps)
            : work.status === 'refund'
              ? await refund(work, deps)
              : work.status === 'stop_renewal'
                ? await stopRenewal(work, deps)
                : work.status === 'remove_zone'
                  ? await removeLeftZone(work, deps)
                  : await notifyOwner(work, deps);
    } catch (error) {
      console.error(`domain-purchase: ${work.domain}`, error);
      result = 'error';
    }
    counts[result] = (counts[result] ?? 0) + 1;
  }
  return counts;
}
