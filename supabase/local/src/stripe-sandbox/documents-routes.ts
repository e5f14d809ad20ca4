import { json } from '../http.ts';
import { AUTHENTICATION_FAILED, cardOutcome, readCard, type CardCheck } from './cards.ts';
import { formatAmount, hostedPage, messagePage } from './checkout-page.ts';
import { StripeError } from './errors.ts';
import type { FormObject } from './form.ts';
import { StripeDocuments } from './documents.ts';
import { renderPdf } from './pdf.ts';
import type { Invoice, StripeWorld } from './world.ts';

/**
 * The routes of documents.ts: its API calls under /v1 and its hosted pages (the setup-mode
 * checkout at /c/setup/{id}, the hosted invoice page at /i/{id} that takes a card for an open
 * invoice, and the invoice PDF at /i/{id}/pdf). Each answers undefined for a path that is not
 * its own, so index.ts tries it before its own routes.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const CARD_FIELDS = `
<label for="cardNumber">Card number</label><input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">
<label for="cardExpiry">Expiration (MM / YY)</label><input id="cardExpiry" name="cardExpiry" autocomplete="cc-exp" placeholder="MM / YY">
<label for="cardCvc">CVC</label><input id="cardCvc" name="cardCvc" autocomplete="cc-csc" placeholder="CVC">
<label for="billingName">Cardholder name</label><input id="billingName" name="billingName" autocomplete="cc-name">`;

const errorLine = (error?: string) =>
  error ? `<p class="error" role="alert">${escape(error)}</p>` : '';

/** The card from a hosted form, with the outcome Stripe's test card would have. */
function cardFrom(fields: URLSearchParams, now: Date): CardCheck {
  const card = readCard(
    {
      number: fields.get('cardNumber') ?? '',
      expiry: fields.get('cardExpiry') ?? '',
      cvc: fields.get('cardCvc') ?? '',
    },
    now,
  );
  if (!card.ok) return card;
  const outcome = cardOutcome(card.number);
  if (outcome.kind === 'declined')
    return { ok: false, code: outcome.code, message: outcome.message, param: 'number' };
  // These pages have no 3-D Secure step: a card that needs one fails as unauthenticated.
  if (outcome.kind === 'requires_action')
    return {
      ok: false,
      code: AUTHENTICATION_FAILED.code,
      message: AUTHENTICATION_FAILED.message,
      param: 'number',
    };
  return card;
}

export function invoicePdf(
  invoice: Invoice,
  customer: { name: string | null; email: string | null },
) {
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  // The currency's code rather than its sign: the PDF's standard fonts lack most signs.
  const amount = (value: number) =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: invoice.currency.toUpperCase(),
      currencyDisplay: 'code',
    })
      .format(value / 100)
      .replace(/\s/g, ' ');
  return renderPdf(`Invoice ${invoice.number}`, [
    { text: 'Shortlane', size: 20, bold: true },
    { text: `Invoice ${invoice.number}`, size: 14, bold: true, gap: 12 },
    { text: `Date of issue: ${day(invoice.created)}` },
    { text: `Status: ${invoice.status}` },
    { text: `Bill to: ${customer.name ?? ''} ${customer.email ?? ''}`.trim(), gap: 6 },
    { text: `Service period: ${day(invoice.period_start)} - ${day(invoice.period_end)}`, gap: 12 },
    ...invoice.lines.data.map((line, index) => ({
      text: `${line.description}: ${amount(line.amount)}`,
      gap: index === 0 ? 6 : 0,
    })),
    { text: `Amount due: ${amount(invoice.amount_due)}`, bold: true },
    { text: `Amount paid: ${amount(invoice.amount_paid)}` },
    { text: `Amount remaining: ${amount(invoice.amount_remaining)}` },
    { text: 'Stripe sandbox - test mode', size: 8, gap: 24 },
  ]);
}

export function createDocumentRoutes(world: StripeWorld, publicUrl: string) {
  const docs = new StripeDocuments(world, publicUrl);

  /** API calls of documents.ts; undefined when the route is not one of them. */
  async function api(
    route: string,
    id: string | undefined,
    fourth: string | undefined,
    query: URLSearchParams,
    form: () => Promise<FormObject>,
  ): Promise<Response | undefined> {
    switch (route) {
      case 'GET payment_methods/:id':
        return json(docs.paymentMethod(id!));
      case 'GET payment_methods': {
        const customer = query.get('customer');
        if (!customer) return undefined;
        const data = docs.customerPaymentMethods(customer);
        return json({ object: 'list', data, has_more: false, url: '/v1/payment_methods' });
      }
      case 'GET customers/:id/payment_methods': {
        const data = docs.customerPaymentMethods(id!);
        return json({
          object: 'list',
          data,
          has_more: false,
          url: `/v1/customers/${id}/payment_methods`,
        });
      }
      case 'POST customers/:id':
        return json(docs.updateCustomer(id!, await form()));
      case 'POST customers/:id/tax_ids':
        return json(docs.createTaxId(id!, await form()));
      case 'GET customers/:id/tax_ids': {
        const data = docs.customerTaxIds(id!);
        return json({ object: 'list', data, has_more: false, url: `/v1/customers/${id}/tax_ids` });
      }
      case 'GET invoice_payments': {
        const data = docs.listInvoicePayments(query);
        return json({ object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
      }
      case 'POST refunds':
        return json(docs.createRefund(await form()));
      case 'GET charges/:id':
        return json(docs.charge(id!));
      case 'GET checkout/sessions/:id':
        return docs.setupSession(id!) ? json(docs.setupSession(id!)) : undefined;
    }
    // DELETE customers/:id/tax_ids/:txi reads as `customers/:id/tax_ids` plus a fourth part.
    if (route === 'DELETE customers/:id/tax_ids' && fourth)
      return json(docs.deleteTaxId(id!, fourth));
    return undefined;
  }

  function setupPage(sessionId: string, error?: string, status = 200): Response {
    const session = docs.setupSession(sessionId)!;
    const back = session.cancel_url
      ? `<p><a href="${escape(session.cancel_url)}">← Back</a></p>`
      : '';
    return hostedPage(
      'Update payment method',
      `${back}<h1>Update your payment method</h1><p>Your card is saved for future payments; nothing is charged now.</p>
<form method="post" action="${escape(session.id)}">${CARD_FIELDS}
${errorLine(error)}<button type="submit">Save card</button></form>`,
      status,
    );
  }

  async function setup(request: Request, sessionId: string): Promise<Response> {
    const session = docs.setupSession(sessionId);
    if (!session)
      return messagePage(
        'Something went wrong',
        'The page you were looking for could not be found.',
        404,
      );
    if (session.status === 'complete')
      return Response.redirect(
        session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id),
        303,
      );
    if (session.status !== 'open')
      return messagePage('This checkout session has expired', 'Go back and start again.', 410);
    if (request.method !== 'POST') return setupPage(sessionId);
    const fields = new URLSearchParams(await request.text());
    const card = cardFrom(fields, new Date(world.now() * 1000));
    if (!card.ok) return setupPage(sessionId, card.message, 402);
    docs.completeSetup(sessionId, card, fields.get('billingName')?.trim() || null);
    return new Response(null, {
      status: 303,
      headers: { location: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) },
    });
  }

  function invoicePage(invoice: Invoice, error?: string, status = 200): Response {
    const amount = formatAmount(invoice.amount_due, invoice.currency);
    const pdf = `<p><a href="${escape(invoice.invoice_pdf)}">Download invoice</a></p>`;
    if (invoice.status !== 'open')
      return hostedPage(
        `Invoice ${invoice.number}`,
        `<h1>Invoice ${escape(invoice.number)}</h1><p><strong>${amount}</strong></p><p role="status">Invoice ${escape(invoice.status)}</p>${pdf}`,
        status,
      );
    return hostedPage(
      `Invoice ${invoice.number}`,
      `<h1>Invoice ${escape(invoice.number)}</h1><p><strong>${amount}</strong> due</p>${pdf}
<form method="post" action="${escape(invoice.id)}">${CARD_FIELDS}
${errorLine(error)}<button type="submit">Pay ${amount}</button></form>`,
      status,
    );
  }

  async function hostedInvoice(request: Request, invoiceId: string, extra?: string) {
    const invoice = world.invoices.get(invoiceId);
    if (!invoice) return messagePage('Invoice not found', invoiceId, 404);
    if (extra === 'pdf') {
      const customer = world.customers.get(invoice.customer) ?? { name: null, email: null };
      return new Response(invoicePdf(invoice, customer), {
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="Invoice-${invoice.number}.pdf"`,
        },
      });
    }
    if (request.method !== 'POST' || invoice.status !== 'open') return invoicePage(invoice);
    const card = cardFrom(new URLSearchParams(await request.text()), new Date(world.now() * 1000));
    if (!card.ok) return invoicePage(invoice, card.message, 402);
    docs.payInvoice(invoice.id, card);
    return invoicePage(invoice);
  }

  /** Hosted pages of documents.ts; undefined for other paths. */
  async function pages(request: Request, parts: string[]): Promise<Response | undefined> {
    try {
      if (parts[0] === 'c' && parts[1] === 'setup' && parts[2])
        return await setup(request, parts[2]);
      if (parts[0] === 'i' && parts[1]) return await hostedInvoice(request, parts[1], parts[2]);
    } catch (error) {
      if (error instanceof StripeError)
        return messagePage('Something went wrong', error.message, error.status);
      throw error;
    }
    return undefined;
  }

  return { docs, api, pages };
}
