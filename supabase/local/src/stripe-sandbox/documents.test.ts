import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { createStripeSandbox, SANDBOX_STRIPE_SECRET_KEY, type StripeSandbox } from './index.ts';

/**
 * The sandbox's payment methods, setup-mode checkout, hosted invoice payment, invoice PDF,
 * refunds and tax ids, driven through the official SDK (its requests handed straight to the
 * sandbox's handler, no server) and the hosted pages' forms.
 */
// The gateway hands the sandbox its paths without the /sandbox/stripe mount.
const PUBLIC_URL = 'http://sandbox.test';
let sandbox: StripeSandbox;

function open(): Stripe {
  sandbox = createStripeSandbox({ publicUrl: PUBLIC_URL });
  return new Stripe(SANDBOX_STRIPE_SECRET_KEY, {
    host: 'sandbox.test',
    port: 80,
    protocol: 'http',
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((input, init) => {
      const url = new URL(String(input));
      return sandbox.handler(new Request(`${PUBLIC_URL}${url.pathname}${url.search}`, init));
    }),
  });
}

afterEach(() => sandbox?.stop());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});
const card = (number: string) => ({
  cardNumber: number,
  cardExpiry: '08 / 31',
  cardCvc: '123',
  billingName: 'Pat Doe',
});
const page = (url: string, init?: RequestInit) => sandbox.handler(new Request(url, init));

async function subscribed(stripe: Stripe) {
  const customer = await stripe.customers.create({ email: 'pat@example.com' });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'eur',
          unit_amount: 1200,
          recurring: { interval: 'month' },
          product_data: { name: 'Pro' },
        },
      },
    ],
    success_url: 'http://portal.test/done?session_id={CHECKOUT_SESSION_ID}',
  });
  const paid = await page(session.url!, form(card('4242424242424242')));
  expect(paid.status).toBe(303);
  const done = await stripe.checkout.sessions.retrieve(session.id);
  return { customer: customer.id, subscription: done.subscription as string };
}

describe('Stripe sandbox: billing documents', () => {
  it('saves the checkout card as the default and replaces it through a setup-mode session', async () => {
    const stripe = open();
    const { customer } = await subscribed(stripe);
    const first = await stripe.customers.retrieve(customer);
    if (first.deleted) throw new Error('deleted');
    const firstMethod = await stripe.paymentMethods.retrieve(
      first.invoice_settings.default_payment_method as string,
    );
    expect(firstMethod.card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 8 });

    const setup = await stripe.checkout.sessions.create({
      mode: 'setup',
      currency: 'usd',
      customer,
      success_url:
        'http://portal.test/app/settings/payment-method?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://portal.test/app/settings/payment-method',
    });
    expect(setup).toMatchObject({ object: 'checkout.session', mode: 'setup', status: 'open' });
    const declined = await page(setup.url!, form(card('4000000000000002')));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    const saved = await page(setup.url!, form(card('5555555555554444')));
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(
      `http://portal.test/app/settings/payment-method?session_id=${setup.id}`,
    );
    const completed = await stripe.checkout.sessions.retrieve(setup.id);
    expect(completed.status).toBe('complete');
    expect(completed.setup_intent).toMatch(/^seti_/);
    const after = await stripe.customers.retrieve(customer);
    if (after.deleted) throw new Error('deleted');
    const method = await stripe.paymentMethods.retrieve(
      after.invoice_settings.default_payment_method as string,
    );
    expect(method.card).toMatchObject({ brand: 'mastercard', last4: '4444', country: 'US' });
    const types = sandbox.world.events.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'payment_method.attached',
        'customer.updated',
        'setup_intent.succeeded',
        'checkout.session.completed',
      ]),
    );
  });

  it('renders a real PDF at invoice_pdf', async () => {
    const stripe = open();
    const { customer } = await subscribed(stripe);
    const [invoice] = (await stripe.invoices.list({ customer })).data;
    expect(invoice!.invoice_pdf).toBe(`${PUBLIC_URL}/i/${invoice!.id}/pdf`);
    const pdf = await page(invoice!.invoice_pdf!);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain(`(Invoice ${invoice!.number})`);
    expect(text).toContain('(Amount due: EUR 12.00)');
    // The xref offsets point at each object, as a viewer reads them.
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
      Number(m[1]),
    );
    offsets.forEach((offset, index) =>
      expect(text.slice(offset).startsWith(`${index + 1} 0 obj\n`)).toBe(true),
    );
  });

  it('pays a past-due invoice on the hosted invoice page and reactivates the plan', async () => {
    const stripe = open();
    const { subscription } = await subscribed(stripe);
    const renew = await page(`${PUBLIC_URL}/_sandbox/subscriptions/${subscription}/renew`, {
      ...form({ outcome: 'failed' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${SANDBOX_STRIPE_SECRET_KEY}`,
      },
    });
    expect(renew.status).toBe(200);
    const pastDue = await stripe.subscriptions.retrieve(subscription);
    expect(pastDue.status).toBe('past_due');
    const invoice = await stripe.invoices.retrieve(pastDue.latest_invoice as string);
    expect(invoice.status).toBe('open');
    const refused = await page(invoice.hosted_invoice_url!, form(card('4000000000009995')));
    expect(refused.status).toBe(402);
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('open');
    const paid = await page(invoice.hosted_invoice_url!, form(card('4242424242424242')));
    expect(await paid.text()).toContain('Invoice paid');
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe('paid');
    const active = await stripe.subscriptions.retrieve(subscription);
    expect(active.status).toBe('active');
    expect(active.items.data[0]!.current_period_start).toBe(invoice.period_start);
  });

  it('refunds what an invoice charged once, and finds the invoice of a payment', async () => {
    const stripe = open();
    const { customer } = await subscribed(stripe);
    const [invoice] = (await stripe.invoices.list({ customer })).data;
    const payments = await stripe.invoicePayments.list({ invoice: invoice!.id });
    expect(payments.data).toHaveLength(1);
    const intent = payments.data[0]!.payment.payment_intent as string;
    expect(intent).toMatch(/^pi_/);
    const found = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intent },
    });
    expect(found.data[0]!.invoice).toBe(invoice!.id);
    const refund = await stripe.refunds.create({ payment_intent: intent });
    expect(refund).toMatchObject({ object: 'refund', amount: 1200, status: 'succeeded' });
    const refunded = sandbox.world.events.find((event) => event.type === 'charge.refunded');
    expect(refunded?.data.object).toMatchObject({ refunded: true, payment_intent: intent });
    await expect(stripe.refunds.create({ payment_intent: intent })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
  });

  it('refunds part of a payment; a retry with the same idempotency key answers the first', async () => {
    const stripe = open();
    const { customer } = await subscribed(stripe);
    const [invoice] = (await stripe.invoices.list({ customer })).data;
    const payments = await stripe.invoicePayments.list({ invoice: invoice!.id });
    const intent = payments.data[0]!.payment.payment_intent as string;
    const params = { payment_intent: intent, amount: 500, metadata: { reason: 'taken' } };
    const first = await stripe.refunds.create(params, { idempotencyKey: 'refund-a' });
    expect(first).toMatchObject({ amount: 500, metadata: { reason: 'taken' } });
    const retried = await stripe.refunds.create(params, { idempotencyKey: 'refund-a' });
    expect(retried.id).toBe(first.id);
    const events = sandbox.world.events.filter((event) => event.type === 'charge.refunded');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toMatchObject({ amount_refunded: 500, refunded: false });
    const rest = await stripe.refunds.create({ payment_intent: intent }, { idempotencyKey: 'b' });
    expect(rest.amount).toBe(700);
  });

  it('keeps a billing address and tax ids on the customer', async () => {
    const stripe = open();
    const customer = await stripe.customers.create({ email: 'vat@example.com' });
    await stripe.customers.update(customer.id, {
      name: 'Acme GmbH',
      address: { line1: 'Hauptstr. 1', city: 'Berlin', country: 'DE' },
    });
    await expect(
      stripe.customers.createTaxId(customer.id, { type: 'eu_vat', value: '12' }),
    ).rejects.toMatchObject({ code: 'tax_id_invalid' });
    const taxId = await stripe.customers.createTaxId(customer.id, {
      type: 'eu_vat',
      value: 'DE123456789',
    });
    expect(taxId).toMatchObject({ object: 'tax_id', country: 'DE', value: 'DE123456789' });
    expect((await stripe.customers.listTaxIds(customer.id)).data).toHaveLength(1);
    await stripe.customers.deleteTaxId(customer.id, taxId.id);
    expect((await stripe.customers.listTaxIds(customer.id)).data).toHaveLength(0);
    const after = await stripe.customers.retrieve(customer.id);
    expect(after).toMatchObject({ name: 'Acme GmbH', address: { city: 'Berlin' } });
  });
});
