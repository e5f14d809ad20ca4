import { StripeError, invalidParam, missingParam, noSuchObject } from './errors.ts';
import { obj, str, type FormObject } from './form.ts';
import { stripeId } from './ids.ts';
import { integer, metadataOf, type InvoiceLine, type StripeWorld } from './world.ts';

/**
 * Invoice items (`POST /v1/invoiceitems`, `GET /v1/invoiceitems/:id`): a one-off amount added to
 * a customer's subscription, pending until the subscription's next invoice, where it is a line
 * of its own (`parent.type: invoice_item_details`). The metered overage is reported this way.
 *
 * As at Stripe, a request repeated with the same `Idempotency-Key` answers the first item
 * again and adds nothing; the same key with other parameters is an `idempotency_error`.
 */

export interface InvoiceItem extends Record<string, unknown> {
  id: string;
  object: 'invoiceitem';
  amount: number;
  currency: string;
  customer: string;
  date: number;
  description: string | null;
  discountable: boolean;
  invoice: string | null;
  livemode: false;
  metadata: Record<string, string>;
  period: { start: number; end: number };
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  proration: false;
  quantity: number;
}

export class StripeInvoiceItems {
  readonly items = new Map<string, InvoiceItem>();
  private readonly byKey = new Map<string, { body: string; id: string }>();

  constructor(private readonly world: StripeWorld) {}

  create(form: FormObject, idempotencyKey: string | null): InvoiceItem {
    const body = JSON.stringify(form);
    if (idempotencyKey) {
      const seen = this.byKey.get(idempotencyKey);
      if (seen) {
        if (seen.body !== body)
          throw new StripeError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          );
        return this.item(seen.id);
      }
    }
    const customerId = str(form.customer);
    if (!customerId) throw missingParam('customer');
    const customer = this.world.customer(customerId);
    const subscriptionId = str(form.subscription);
    // Our callers always name the subscription whose next invoice carries the item.
    if (!subscriptionId) throw missingParam('subscription');
    const subscription = this.world.subscription(subscriptionId);
    if (subscription.customer !== customer.id)
      throw invalidParam('subscription', 'The subscription does not belong to this customer.');
    if (subscription.status === 'canceled')
      throw invalidParam('subscription', 'The subscription is canceled.');
    const amount = integer(form.amount, 'amount', Number.MIN_SAFE_INTEGER);
    if (amount === undefined) throw missingParam('amount');
    const currency = (str(form.currency) ?? subscription.currency).toLowerCase();
    if (currency !== subscription.currency)
      throw invalidParam(
        'currency',
        `The currency ${currency} does not match the subscription's currency ${subscription.currency}.`,
      );
    const now = this.world.now();
    const period = obj(form.period);
    const start = integer(period?.start, 'period[start]') ?? now;
    const end = integer(period?.end, 'period[end]') ?? now;
    if (end < start) throw invalidParam('period[end]', 'The period end must follow its start.');
    const item: InvoiceItem = {
      id: stripeId('ii'),
      object: 'invoiceitem',
      amount,
      currency,
      customer: customer.id,
      date: now,
      description: str(form.description) ?? null,
      discountable: false,
      invoice: null,
      livemode: false,
      metadata: metadataOf(form.metadata, 'metadata'),
      period: { start, end },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      proration: false,
      quantity: 1,
    };
    this.items.set(item.id, item);
    if (idempotencyKey) this.byKey.set(idempotencyKey, { body, id: item.id });
    const line: InvoiceLine = {
      id: stripeId('il'),
      object: 'line_item',
      amount,
      currency,
      description: item.description ?? 'Invoice item',
      period: { start, end },
      pricing: {
        type: 'price_details',
        price_details: {
          price: subscription.items.data[0]!.price.id,
          product: subscription.items.data[0]!.price.product,
        },
      },
      quantity: 1,
      parent: {
        type: 'invoice_item_details',
        invoice_item_details: {
          invoice_item: item.id,
          proration: false,
          subscription: subscription.id,
        },
      },
    };
    this.world.pendingInvoiceItems.set(subscription.id, [
      ...(this.world.pendingInvoiceItems.get(subscription.id) ?? []),
      line,
    ]);
    this.world.emit('invoiceitem.created', item);
    return item;
  }

  item(id: string): InvoiceItem {
    const item = this.items.get(id);
    if (!item) throw noSuchObject('invoiceitem', id);
    // The invoice it landed on, once the subscription was billed.
    if (!item.invoice) {
      for (const invoice of this.world.invoices.values()) {
        if (
          invoice.lines.data.some(
            (line) =>
              line.parent.type === 'invoice_item_details' &&
              line.parent.invoice_item_details.invoice_item === id,
          )
        )
          item.invoice = invoice.id;
      }
    }
    return item;
  }
}
