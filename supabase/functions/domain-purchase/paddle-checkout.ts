/**
 * POST /domain-purchase/checkout with billing type 2 (Paddle Billing): the cart becomes an
 * order, as with billing type 1 (checkout.ts: prices from app.cart_lines, the names asked at the
 * registrar first), and one Paddle transaction that the portal opens in Paddle.js' overlay at
 * /paddle/payment (flow `domain-purchase`). Its recurring item is the names' yearly price (the
 * `shopping-cart` subscription Paddle makes on payment, which renews them); extra years are
 * one-time items of the first transaction, the plan's first-year discount a one-time flat Paddle
 * discount. The paddle-webhook function applies what follows (migration 20261122006600).
 */
import type { OverlayBilling } from '../_shared/billing/overlay-provider.ts';
import { discountCode } from '../_shared/billing/paddle.ts';
import { HttpError } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import { paddlePaymentUrl, customerFor } from '../billing/paddle.ts';
import {
  abandonDomainOrder,
  CHECKOUT_FAILED,
  type CheckoutInput,
  firstYearCharges,
  invalid,
  openDomainOrder,
} from './order.ts';
import type { PurchaseRegistrar } from './registrar-port.ts';

export async function startPaddleCheckout(
  db: Sql,
  paddle: () => OverlayBilling,
  registrar: PurchaseRegistrar,
  input: CheckoutInput,
): Promise<{ order_id: string; checkout: Record<string, unknown> }> {
  if (!input.email)
    throw invalid('billing_type', 'An e-mail address is needed to pay with Paddle.');
  const order = await openDomainOrder(db, registrar, input, 2);
  const currency = order.lines[0]!.currency.toUpperCase();
  const { extraYears, discount } = firstYearCharges(order.lines);
  const names = order.lines.map((line) => line.domain).join(', ');
  try {
    const overlay = paddle();
    const customerId = await customerFor(db, overlay, {
      accountId: order.account_id,
      email: input.email,
    });
    const coupon =
      discount > 0
        ? await overlay.ensureDiscount({
            code: `DOMAINS${order.id}`,
            percentOff: null,
            amountOff: discount,
            currency,
          })
        : null;
    const transaction = await overlay.createCheckout({
      customerId,
      unitAmount: Number(order.renewal),
      currency,
      interval: 'year',
      productName: `Domains: ${names}`.slice(0, 250),
      priceName: 'Domains (yearly)',
      trialDays: 0,
      checkoutUrl: `${input.origin}/paddle/payment`,
      customData: {
        account_id: order.account_id,
        order_id: order.id,
        kind: 'domain-purchase',
      },
      discountId: coupon?.id ?? null,
      oneTimeItems: extraYears,
    });
    await db`select app.set_domain_order_checkout(${order.id}, ${transaction.id})`;
    return {
      order_id: order.id,
      checkout: {
        billing_type: 2,
        flow: 'domain-purchase',
        customer: { id: customerId, auth_token: await overlay.customerAuthToken(customerId) },
        discount_code: coupon ? discountCode(`DOMAINS${order.id}`) : null,
        prices: transaction.items.map((item) => ({ price_id: item.price?.id ?? '' })),
        payment_method: null,
        transaction_id: transaction.id,
        success_url: `${input.origin}/app/shopping-cart/success?session_id={CHECKOUT_SESSION_ID}`,
        locale: 'en',
        allow_discounts: Boolean(coupon),
        payment_methods: ['card'],
        payment_url: paddlePaymentUrl(input.origin, transaction.id, 'domain-purchase'),
      },
    };
  } catch (error) {
    console.error('domain-purchase: Paddle checkout not created', error);
    await abandonDomainOrder(db, order.id);
    throw new HttpError(502, CHECKOUT_FAILED, 'checkout_failed');
  }
}
