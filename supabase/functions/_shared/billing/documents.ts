import type Stripe from 'stripe';
import { requireEnv } from '../env.ts';
import { stripeSdk } from './stripe.ts';

/**
 * Billing type 1 after checkout: the card a customer pays with and how they replace it
 * (Checkout in setup mode), invoice documents (PDF, the hosted page that pays an open one),
 * refunds of what an invoice charged, and tax details on the customer. Beside CardBilling
 * (provider.ts) rather than in it: the subscription lifecycle and these documents change for
 * different reasons. One implementation, on the official SDK.
 */

export interface PaymentMethodSummary {
  object: 'payment_method';
  customer: string;
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    country: string | null;
  };
}

export interface TaxDetails {
  name: string | null;
  address: { line1: string; line2?: string; city?: string; postal_code?: string; country: string };
  taxId: { type: string; value: string } | null;
}

export interface BillingDocuments {
  /** A hosted page where the customer saves a new default card (nothing is charged). */
  createPaymentMethodCheckout(input: {
    customerId: string;
    successUrl: string;
    cancelUrl: string;
    metadata: Record<string, string>;
  }): Promise<Stripe.Checkout.Session>;
  /** The customer's default card now, or null. */
  defaultPaymentMethod(customerId: string): Promise<PaymentMethodSummary | null>;
  retrieveInvoice(id: string): Promise<Stripe.Invoice>;
  /** The invoice's PDF as the provider renders it. */
  invoicePdf(id: string): Promise<Uint8Array<ArrayBuffer>>;
  /**
   * The paid invoice's payment refunded, in full or `amount` (minor units) of it; a repeated
   * call with the same `idempotencyKey` answers the first refund instead of a second one.
   */
  refundInvoice(
    invoiceId: string,
    reason: string | null,
    options?: { amount?: number; idempotencyKey?: string },
  ): Promise<Stripe.Refund>;
  /** The invoice a payment intent paid (charge.refunded names only the payment). */
  invoiceOfPaymentIntent(paymentIntent: string): Promise<string | null>;
  /** Billing address and name on the customer, and its tax id replaced by `taxId`. */
  setTaxDetails(customerId: string, details: TaxDetails): Promise<void>;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function createStripeDocuments(
  stripe: Stripe,
  fetchPdf: typeof fetch = fetch,
): BillingDocuments {
  return {
    createPaymentMethodCheckout: (input) =>
      stripe.checkout.sessions.create({
        mode: 'setup',
        currency: 'usd',
        customer: input.customerId,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
      }),
    defaultPaymentMethod: async (customerId) => {
      const customer = await stripe.customers.retrieve(customerId);
      if (customer.deleted) return null;
      const methodId = idOf(customer.invoice_settings?.default_payment_method);
      if (!methodId) return null;
      const method = await stripe.paymentMethods.retrieve(methodId);
      if (!method.card) return null;
      return {
        object: 'payment_method',
        customer: customerId,
        card: {
          brand: method.card.brand,
          last4: method.card.last4,
          exp_month: method.card.exp_month,
          exp_year: method.card.exp_year,
          country: method.card.country ?? null,
        },
      };
    },
    retrieveInvoice: (id) => stripe.invoices.retrieve(id),
    invoicePdf: async (id) => {
      const invoice = await stripe.invoices.retrieve(id);
      if (!invoice.invoice_pdf) throw new Error(`invoice ${id} has no PDF yet`);
      const response = await fetchPdf(invoice.invoice_pdf);
      if (!response.ok) throw new Error(`invoice ${id}: the PDF answered ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    refundInvoice: async (invoiceId, reason, options = {}) => {
      const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
      const paid = payments.data.find((payment) => payment.status === 'paid');
      const intent = idOf(paid?.payment.payment_intent);
      if (!intent) throw new Error(`invoice ${invoiceId} has no payment to refund`);
      return await stripe.refunds.create(
        {
          payment_intent: intent,
          ...(options.amount !== undefined ? { amount: options.amount } : {}),
          ...(reason ? { metadata: { reason: reason.slice(0, 500) } } : {}),
        },
        options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : undefined,
      );
    },
    invoiceOfPaymentIntent: async (paymentIntent) => {
      const payments = await stripe.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: paymentIntent },
        limit: 1,
      });
      return idOf(payments.data[0]?.invoice as string | { id: string } | undefined);
    },
    setTaxDetails: async (customerId, details) => {
      await stripe.customers.update(customerId, {
        ...(details.name ? { name: details.name } : {}),
        address: details.address,
      });
      const existing = await stripe.customers.listTaxIds(customerId, { limit: 10 });
      for (const taxId of existing.data) await stripe.customers.deleteTaxId(customerId, taxId.id);
      if (details.taxId)
        await stripe.customers.createTaxId(customerId, {
          type: details.taxId.type as Stripe.CustomerCreateTaxIdParams.Type,
          value: details.taxId.value,
        });
    },
  };
}

let cached: BillingDocuments | undefined;

/** From the same env as cardBillingFromEnv: STRIPE_SECRET_KEY and optional STRIPE_API_BASE. */
export function billingDocumentsFromEnv(): BillingDocuments {
  cached ??= createStripeDocuments(
    stripeSdk(requireEnv('STRIPE_SECRET_KEY'), Deno.env.get('STRIPE_API_BASE') || undefined),
  );
  return cached;
}
