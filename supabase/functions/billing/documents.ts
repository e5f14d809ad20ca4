/**
 * billing, after checkout (billing types 1 and 2): the calls of the payment-method, invoice and
 * past-due pages, for any account the caller manages billing of (RLS on billing_customers and
 * invoices decides: owner, team admin with `billing`, organization user with `subscriptions`).
 *
 *   GET  /billing/settings/payment-method?account_id=&return_path=&billing_type=
 *        → 200 { data: { billing_type, transaction_id, payment_url, success_url } }
 *          Stripe: a Checkout in setup mode; Paddle: the subscription's payment-method update
 *          transaction in the overlay (/paddle/payment, flow payment-method-update). The
 *          customer saves a new card, the webhook records it
 *   GET  /billing/invoices/{invoiceId}/pdf      → 200 application/pdf (the provider's PDF)
 *   POST /billing/settings/subscription/pay { account_id?, billing_type? }
 *        → 200 { data: { billing_type, transaction_id, payment_url } } the open invoice of a
 *          past-due plan, paid on Stripe's hosted invoice page or, for Paddle, its past-due
 *          renewal in the overlay (flow invoice-payment); the webhook restores the plan
 *   PUT  /billing/vatinfo { account_id?, billing_type?, name?, tax_id_type?, tax_id?, address }
 *        → 200 { billing_customer } tax id and billing address, sent to the Stripe customer (a
 *          Paddle customer gives them in Paddle's checkout; ours is force_billing_address' copy)
 *
 * Without a billing type, the account's current plan's provider is meant, else Stripe.
 */
import { billingDocumentsFromEnv, type BillingDocuments } from '../_shared/billing/documents.ts';
import { callerOf } from '../_shared/caller.ts';
import { corsHeaders } from '../_shared/cors.ts';
import { HttpError, json } from '../_shared/http.ts';
import { isImpersonation } from '../_shared/impersonation.ts';
import { invalid } from '../_shared/kiosk/request.ts';
import { permissionDenied } from '../_shared/kiosk/staff.ts';
import { asCaller, type Sql } from '../_shared/sql.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { paddlePaymentUrl } from './paddle.ts';
import { allowedReturnOrigin } from './return-origin.ts';

export const NO_CUSTOMER = 'There is no card on file for this account.';
export const NOTHING_DUE = 'There is no unpaid invoice to pay.';

export interface DocumentDeps {
  billing: () => CardBilling;
  paddle: () => OverlayBilling;
  /** Default: billingDocumentsFromEnv. */
  documents?: () => BillingDocuments;
  db: () => Sql;
  returnOrigins: () => string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Portal pages a setup checkout may return to (the payment-method page of any scope). */
const RETURN_PATH = /^\/app\/[A-Za-z0-9/_-]{1,200}$/;

const documentsOf = (deps: DocumentDeps) => (deps.documents ?? billingDocumentsFromEnv)();

function signedIn(request: Request): string {
  const { claims } = callerOf(request);
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') throw permissionDenied();
  if (isImpersonation(claims)) throw permissionDenied();
  return claims.sub;
}

/**
 * The billing customer of `accountId` (the caller's personal account when absent), if the caller
 * may manage its billing: RLS answers the select only to billing managers. Of the billing type
 * asked for; else of the account's current plan's provider, else Stripe's.
 */
async function managedCustomer(
  request: Request,
  accountId: string | null,
  billingType: 1 | 2 | null = 1,
) {
  if (accountId !== null && !UUID.test(accountId)) throw invalid('account_id', 'Unknown account.');
  const rows = await asCaller(
    request,
    (tx) => tx<{ account_id: string; billing_id: string; billing_type: 1 | 2 }[]>`
      select c.account_id, c.billing_id, c.billing_type from public.billing_customers c
      where (${billingType}::smallint is null or c.billing_type = ${billingType}::smallint)
        and c.account_id = coalesce(${accountId}::uuid,
          (select p.personal_account_id from public.profiles p where p.id = (select auth.uid())))
      order by exists (select 1 from public.subscriptions s
        where s.account_id = c.account_id and s.billing_type = c.billing_type
          and s.type = 'default' and (s.ends_at is null or s.ends_at > now())) desc,
        c.billing_type`,
  );
  const row = rows[0];
  if (!row) throw new HttpError(404, NO_CUSTOMER, 'billing_customer_not_found');
  return { accountId: row.account_id, customerId: row.billing_id, billingType: row.billing_type };
}

/** The billing type a query or body names, or null. */
function namedBillingType(value: unknown): 1 | 2 | null {
  if (value === undefined || value === null || value === '') return null;
  if (value === 1 || value === '1') return 1;
  if (value === 2 || value === '2') return 2;
  throw invalid('billing_type', 'The billing type must be 1 (card) or 2 (checkout).');
}

/** The account's latest Paddle plan subscription, current or past due. */
async function paddleSubscriptionOf(deps: DocumentDeps, accountId: string) {
  const [row] = await deps.db()<{ billing_id: string; billing_status: string | null }[]>`
    select billing_id, billing_status from public.subscriptions
    where account_id = ${accountId} and billing_type = 2 and type = 'default'
      and billing_id not like '%:scheduled' and (ends_at is null or ends_at > now())
    order by created_at desc limit 1`;
  return row ?? null;
}

async function jsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return body as Record<string, unknown>;
  } catch {
    // Refused below.
  }
  throw new HttpError(400, 'The body must be a JSON object', 'invalid_json');
}

async function paymentMethodCheckout(request: Request, deps: DocumentDeps) {
  signedIn(request);
  const query = new URL(request.url).searchParams;
  const { accountId, customerId, billingType } = await managedCustomer(
    request,
    query.get('account_id'),
    namedBillingType(query.get('billing_type')),
  );
  const returnPath = query.get('return_path') ?? '/app/settings/payment-method';
  if (!RETURN_PATH.test(returnPath)) throw invalid('return_path', 'Unknown page.');
  const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins());
  if (!origin)
    throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');
  if (billingType === 2) {
    // Paddle's payment-method update: a transaction for the subscription, paid in the overlay.
    const subscription = await paddleSubscriptionOf(deps, accountId);
    if (!subscription) throw new HttpError(404, NO_CUSTOMER, 'billing_customer_not_found');
    const transaction = await deps.paddle().paymentMethodTransaction(subscription.billing_id);
    return json({
      data: {
        billing_type: 2,
        transaction_id: transaction.id,
        payment_url: paddlePaymentUrl(origin, transaction.id, 'payment-method-update', {
          returnPath,
        }),
        success_url: `${origin}${returnPath}`,
      },
    });
  }
  const back = `${origin}${returnPath}`;
  const successUrl = `${back}?session_id={CHECKOUT_SESSION_ID}`;
  const session = await documentsOf(deps).createPaymentMethodCheckout({
    customerId,
    successUrl,
    cancelUrl: back,
    metadata: { account_id: accountId, flow: 'payment-method-update' },
  });
  return json({
    data: {
      billing_type: 1,
      transaction_id: session.id,
      payment_url: session.url,
      success_url: successUrl,
    },
  });
}

async function invoicePdf(request: Request, deps: DocumentDeps, invoiceId: string) {
  signedIn(request);
  if (!UUID.test(invoiceId)) throw new HttpError(404, 'Not Found', 'invoice_not_found');
  const [invoice] = await asCaller(
    request,
    (tx) => tx<{ billing_id: string; billing_type: number; number: string | null }[]>`
      select billing_id, billing_type, number from public.invoices where id = ${invoiceId}`,
  );
  if (!invoice || (invoice.billing_type !== 1 && invoice.billing_type !== 2))
    throw new HttpError(404, 'Not Found', 'invoice_not_found');
  let pdf: Uint8Array<ArrayBuffer>;
  try {
    pdf =
      invoice.billing_type === 2
        ? await deps.paddle().invoicePdf(invoice.billing_id)
        : await documentsOf(deps).invoicePdf(invoice.billing_id);
  } catch (error) {
    console.error('billing: invoice PDF not fetched', error);
    throw new HttpError(502, 'The invoice could not be downloaded. Try again later.', 'pdf_failed');
  }
  const name = `Invoice-${(invoice.number ?? invoiceId).replace(/[^A-Za-z0-9_-]/g, '')}.pdf`;
  const headers = new Headers(corsHeaders);
  headers.set('content-type', 'application/pdf');
  headers.set('content-disposition', `attachment; filename="${name}"`);
  headers.set('access-control-expose-headers', 'content-disposition');
  return new Response(pdf, { headers });
}

async function payPastDue(request: Request, deps: DocumentDeps) {
  signedIn(request);
  const body = await jsonObject(request);
  const accountId = typeof body.account_id === 'string' ? body.account_id : null;
  const { accountId: account, billingType } = await managedCustomer(
    request,
    accountId,
    namedBillingType(body.billing_type),
  );
  if (billingType === 2) {
    // Paddle answers a past-due subscription's payment-method update with its past-due renewal:
    // paying it in the overlay collects the balance and the subscription is active again.
    const subscription = await paddleSubscriptionOf(deps, account);
    if (subscription?.billing_status !== 'past_due')
      throw new HttpError(404, NOTHING_DUE, 'nothing_due');
    const origin = allowedReturnOrigin(request.headers.get('origin'), deps.returnOrigins());
    if (!origin)
      throw new HttpError(400, 'This site may not start a checkout.', 'origin_not_allowed');
    const transaction = await deps.paddle().paymentMethodTransaction(subscription.billing_id);
    if (transaction.status !== 'past_due') throw new HttpError(404, NOTHING_DUE, 'nothing_due');
    return json({
      data: {
        billing_type: 2,
        transaction_id: transaction.id,
        payment_url: paddlePaymentUrl(origin, transaction.id, 'invoice-payment'),
      },
    });
  }
  const [subscription] = await deps.db()<{ billing_id: string }[]>`
    select billing_id from public.subscriptions
    where account_id = ${account} and billing_type = 1 and billing_id is not null
      and billing_status in ('past_due', 'unpaid', 'incomplete')
    order by created_at desc limit 1`;
  if (!subscription) throw new HttpError(404, NOTHING_DUE, 'nothing_due');
  // Stripe's word on what is owed, not our copy: the invoice may have been paid meanwhile.
  const current = await deps.billing().retrieveSubscription(subscription.billing_id);
  const invoiceId =
    typeof current.latest_invoice === 'string'
      ? current.latest_invoice
      : current.latest_invoice?.id;
  const invoice = invoiceId ? await documentsOf(deps).retrieveInvoice(invoiceId) : null;
  if (!invoice || invoice.status !== 'open' || !invoice.hosted_invoice_url)
    throw new HttpError(404, NOTHING_DUE, 'nothing_due');
  return json({
    data: { billing_type: 1, transaction_id: invoice.id, payment_url: invoice.hosted_invoice_url },
  });
}

const TAX_TYPES = new Set(['eu_vat', 'gb_vat', 'us_ein', 'ch_vat', 'no_vat', 'au_abn', 'ca_bn']);
const text = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() !== '' && value.trim().length <= max
    ? value.trim()
    : undefined;

async function saveVatInfo(request: Request, deps: DocumentDeps) {
  signedIn(request);
  const body = await jsonObject(request);
  const accountId = typeof body.account_id === 'string' ? body.account_id : null;
  const {
    accountId: account,
    customerId,
    billingType,
  } = await managedCustomer(request, accountId, namedBillingType(body.billing_type));
  const errors: Record<string, string[]> = {};
  const address = (typeof body.address === 'object' && body.address) || {};
  const a = address as Record<string, unknown>;
  const line1 = text(a.line1, 200);
  const country = typeof a.country === 'string' ? a.country.trim().toUpperCase() : '';
  if (!line1) errors['address.line1'] = ['The street address is required.'];
  if (!/^[A-Z]{2}$/.test(country)) errors['address.country'] = ['Choose a country.'];
  const taxType = text(body.tax_id_type, 10);
  const taxValue = text(body.tax_id, 30)
    ?.replace(/[\s.-]/g, '')
    .toUpperCase();
  if ((taxType === undefined) !== (taxValue === undefined))
    errors.tax_id = ['Give both the kind of tax id and its number, or neither.'];
  else if (taxType && !TAX_TYPES.has(taxType)) errors.tax_id_type = ['Unknown kind of tax id.'];
  else if (taxValue && !/^[A-Z0-9]{4,20}$/.test(taxValue))
    errors.tax_id = ['The tax id must be 4 to 20 letters and digits.'];
  if (Object.keys(errors).length > 0)
    throw new HttpError(422, 'Validation fails', 'validation_failed', errors);
  const billingAddress = {
    line1: line1!,
    ...(text(a.line2, 200) ? { line2: text(a.line2, 200) } : {}),
    ...(text(a.city, 100) ? { city: text(a.city, 100) } : {}),
    ...(text(a.postal_code, 20) ? { postal_code: text(a.postal_code, 20) } : {}),
    country,
  };
  try {
    // Paddle asks for the address in its own checkout: for it, ours is the copy a plan with
    // force_billing_address needs before that checkout opens.
    if (billingType === 1)
      await documentsOf(deps).setTaxDetails(customerId, {
        name: text(body.name, 200) ?? null,
        address: billingAddress,
        taxId: taxType && taxValue ? { type: taxType, value: taxValue } : null,
      });
  } catch (error) {
    const message = (error as { message?: string }).message ?? 'The provider refused the details.';
    if ((error as { code?: string }).code === 'tax_id_invalid')
      throw new HttpError(422, 'Validation fails', 'validation_failed', { tax_id: [message] });
    throw error;
  }
  // Stored once the provider took it, so our copy never says more than the invoices will.
  const [row] = await deps.db()`
    update public.billing_customers set tax_id = ${taxValue ?? null},
      tax_id_type = ${taxType ?? null}, billing_address = ${deps.db().json(billingAddress)}
    where account_id = ${account} and billing_type = ${billingType}
    returning tax_id, tax_id_type, billing_address`;
  return json({ billing_customer: row });
}

/** The documents routes; undefined for any other path (handler.ts answers those). */
export function documentRoute(
  request: Request,
  path: string,
  deps: DocumentDeps,
): Promise<Response> | undefined {
  const method = request.method;
  if (method === 'GET' && path === '/settings/payment-method')
    return paymentMethodCheckout(request, deps);
  const pdf = /^\/invoices\/([^/]+)\/pdf$/.exec(path);
  if (method === 'GET' && pdf) return invoicePdf(request, deps, pdf[1]!);
  if (method === 'POST' && path === '/settings/subscription/pay') return payPastDue(request, deps);
  if (method === 'PUT' && path === '/vatinfo') return saveVatInfo(request, deps);
  return undefined;
}
