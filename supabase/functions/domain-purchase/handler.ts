/**
 * domain-purchase: buying domain names (app-shell "Purchase and cart"; migration
 * 20261122005700 describes the states).
 *
 *   GET  /domain-purchase/search?name=…   a signed-in user: each active TLD's status and price
 *   POST /domain-purchase/checkout        a signed-in user: { billing_type?, purchase_source? }
 *                                         → { order_id, checkout } (the provider's page)
 *   POST /domain-purchase/process         the service role (cron): registrations, renewals and
 *                                         renewal notices that wait → counts
 *
 * The cart itself is read and written through PostgREST under RLS (cart_items, priced by
 * trigger; public.shopping_cart() for the totals).
 */
import { type BillingDocuments, billingDocumentsFromEnv } from '../_shared/billing/documents.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { cardBillingFromEnv } from '../_shared/billing/stripe.ts';
import { callerOf } from '../_shared/caller.ts';
import { requireEnv } from '../_shared/env.ts';
import { handler, HttpError, json } from '../_shared/http.ts';
import { type MailSender, mailSenderFromEnv } from '../_shared/mail/sender.ts';
import { sql, type Sql } from '../_shared/sql.ts';
import { allowedReturnOrigin } from '../billing/return-origin.ts';
import { type VerifierConfig, verifierConfigFromEnv } from '../domain-verify/dns.ts';
import { dnsProviderFromEnv } from '../kiosk-dns/env.ts';
import type { DnsProvider } from '../kiosk-dns/provider.ts';
import { startCheckout } from './checkout.ts';
import { readCheckoutBody } from './order.ts';
import { startPaddleCheckout } from './paddle-checkout.ts';
import type { PurchaseRegistrar } from './registrar-port.ts';
import { searchDomains } from './search.ts';
import { processDomainWork } from './worker.ts';

export interface DomainPurchaseDeps {
  db: () => Sql;
  registrar: () => PurchaseRegistrar;
  billing: () => CardBilling;
  documents: () => BillingDocuments;
  /** Billing type 2 (Paddle); the env's by default. */
  overlay?: () => OverlayBilling;
  dns: () => DnsProvider;
  verifier: () => VerifierConfig;
  mail: () => MailSender;
  returnOrigins: () => string;
  serviceRoleKey: () => string;
}

function dnsFromEnv(): DnsProvider {
  const choice = dnsProviderFromEnv();
  if (!choice.ok) throw new Error(choice.problem);
  return choice.provider;
}

export const envDeps = (registrar: () => PurchaseRegistrar): DomainPurchaseDeps => ({
  db: sql,
  registrar,
  billing: cardBillingFromEnv,
  documents: billingDocumentsFromEnv,
  dns: dnsFromEnv,
  verifier: () => verifierConfigFromEnv(),
  mail: () => mailSenderFromEnv(),
  returnOrigins: () => Deno.env.get('BILLING_RETURN_ORIGINS') ?? '',
  serviceRoleKey: () => requireEnv('SUPABASE_SERVICE_ROLE_KEY'),
});

/** The signed-in user calling (a 401 for anyone else). */
function userOf(request: Request): string {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
    throw new HttpError(401, 'Log in to buy domains.', 'login_required');
  return claims.sub;
}

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
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

export function createDomainPurchaseHandler(deps: DomainPurchaseDeps) {
  return handler(async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^.*?\/domain-purchase(?=\/|$)/, '').replace(/\/+$/, '');
    const method = request.method;

    if (path === '/search' && method === 'GET') {
      const userId = userOf(request);
      return json(
        await searchDomains(deps.db(), deps.registrar(), userId, url.searchParams.get('name')),
      );
    }
    if (path === '/checkout' && method === 'POST') {
      const userId = userOf(request);
      const { billingType, source } = readCheckoutBody(await bodyOf(request));
      const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins());
      if (!origin)
        throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');
      const db = deps.db();
      const [user] = await db<{ email: string | null }[]>`
        select email::text from auth.users where id = ${userId}`;
      const input = { userId, email: user?.email ?? null, billingType, source, origin };
      return json(
        billingType === 2
          ? await startPaddleCheckout(
              db,
              deps.overlay ?? overlayBillingFromEnv,
              deps.registrar(),
              input,
            )
          : await startCheckout(db, deps.billing, deps.registrar(), input),
      );
    }
    if (path === '/process' && method === 'POST') {
      const token = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
      if (token !== deps.serviceRoleKey())
        throw new HttpError(403, 'Only the service role runs the worker', 'forbidden');
      return json(
        await processDomainWork({
          db: deps.db(),
          registrar: deps.registrar(),
          dns: deps.dns(),
          verifier: deps.verifier(),
          billing: deps.billing,
          documents: deps.documents,
          overlay: deps.overlay ?? overlayBillingFromEnv,
          mail: deps.mail,
        }),
      );
    }
    throw new HttpError(404, 'Not Found', 'not_found');
  });
}
