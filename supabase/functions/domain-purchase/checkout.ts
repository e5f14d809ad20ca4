/**
 * POST /domain-purchase/checkout with billing type 1 (order.ts has what both providers share):
 * one Stripe Checkout subscription per order, yearly, at the names' yearly price (the
 * `shopping-cart` subscription that renews them); extra years are one-time items of the first
 * invoice, the plan's first-year discount a one-time coupon.
 */
import { cardCustomerOf } from '../_shared/billing/customer.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { HttpError } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import {
  abandonDomainOrder,
  CHECKOUT_FAILED,
  type CheckoutInput,
  firstYearCharges,
  openDomainOrder,
} from './order.ts';
import type { PurchaseRegistrar } from './registrar-port.ts';

export async function startCheckout(
  db: Sql,
  billing: () => CardBilling,
  registrar: PurchaseRegistrar,
  input: CheckoutInput,
): Promise<{ order_id: string; checkout: Record<string, unknown> }> {
  const order = await openDomainOrder(db, registrar, input, 1);
  const { lines, id: orderId } = order;
  const currency = lines[0]!.currency.toLowerCase();
  const renewal = Number(order.renewal);
  const { extraYears, discount } = firstYearCharges(lines);
  const metadata = {
    account_id: order.account_id,
    order_id: orderId,
    kind: 'domain-purchase',
  };
  try {
    const card = billing();
    const customerId = await cardCustomerOf(db, card, order.account_id, input.email);
    const coupon =
      discount > 0
        ? await card.ensureCoupon({
            id: `DOMAINS-${orderId}`,
            percentOff: null,
            amountOff: discount,
            currency,
          })
        : null;
    const successUrl = `${input.origin}/app/shopping-cart/success?session_id={CHECKOUT_SESSION_ID}`;
    const session = await card.createCheckout({
      customerId,
      unitAmount: renewal,
      currency,
      interval: 'year',
      productName: `Domains: ${lines.map((line) => line.domain).join(', ')}`.slice(0, 250),
      trialDays: 0,
      successUrl,
      cancelUrl: `${input.origin}/app/purchase/domain/cart`,
      metadata,
      couponId: coupon?.id ?? null,
      oneTimeItems: extraYears,
    });
    await db`select app.set_domain_order_checkout(${orderId}, ${session.id})`;
    return {
      order_id: orderId,
      checkout: {
        billing_type: 1,
        flow: 'domain-purchase',
        customer: { id: customerId, auth_token: null },
        discount_code: coupon?.id ?? null,
        transaction_id: session.id,
        success_url: successUrl,
        locale: 'en',
        payment_methods: ['card'],
        payment_url: session.url,
      },
    };
  } catch (error) {
    console.error('domain-purchase: checkout not created', error);
    await abandonDomainOrder(db, orderId);
    throw new HttpError(502, CHECKOUT_FAILED, 'checkout_failed');
  }
}
