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
  CART_EMPTY,
  CHECKOUT_FAILED,
  type CheckoutInput,
  confirmAvailable,
  invalid,
  type Line,
} from './checkout.ts';
import type { PurchaseRegistrar } from './registrar-port.ts';

/** What the first transaction charges for a cart, beside the yearly renewal (minor units). */
export function firstYearCharges(lines: Line[]) {
  return {
    extraYears: lines
      .filter((line) => line.years > 1)
      .map((line) => ({
        name: `${line.domain}: ${line.years - 1} more year${line.years > 2 ? 's' : ''}`,
        unitAmount: Number(line.yearly_amount) * (line.years - 1),
      })),
    discount: lines.reduce((sum, line) => sum + Number(line.discount), 0),
  };
}

async function openOrder(db: Sql, registrar: PurchaseRegistrar, input: CheckoutInput) {
  const lines = await db<Line[]>`
    select domain, years, yearly_amount::text, discount::text, amount::text, currency
    from app.cart_lines(${input.userId})`;
  if (lines.length === 0) throw invalid('cart', CART_EMPTY, 'cart_empty');
  await confirmAvailable(
    registrar,
    lines.map((line) => line.domain),
  );
  let id: string;
  try {
    const [row] = await db<{ id: string }[]>`
      select app.create_domain_order(${input.userId}, 2::smallint, ${input.source}) as id`;
    id = row!.id;
  } catch (error) {
    const { message, detail } = error as { message?: string; detail?: string };
    if (message === 'cart_empty') throw invalid('cart', CART_EMPTY, 'cart_empty');
    if (message === 'domain_taken' || message === 'cart_currencies')
      throw invalid('cart', detail ?? message, message);
    throw error;
  }
  // A statement of its own: the order the function wrote is not in its caller's snapshot.
  const [order] = await db<{ account_id: string; renewal: string }[]>`
    select account_id, app.domain_order_renewal_amount(id)::text as renewal
    from public.orders where id = ${id}`;
  return { lines, id, ...order! };
}

export async function startPaddleCheckout(
  db: Sql,
  paddle: () => OverlayBilling,
  registrar: PurchaseRegistrar,
  input: CheckoutInput,
): Promise<{ order_id: string; checkout: Record<string, unknown> }> {
  if (!input.email)
    throw invalid('billing_type', 'An e-mail address is needed to pay with Paddle.');
  const order = await openOrder(db, registrar, input);
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
    // Nothing was paid: the order is cancelled and its names go back to the pool.
    await db`
      update public.purchased_domains set status = 'cancelled'
      where order_id = ${order.id} and status = 'pending'`;
    await db`update public.orders set status = 49 where id = ${order.id} and status = 16`;
    throw new HttpError(502, CHECKOUT_FAILED, 'checkout_failed');
  }
}
