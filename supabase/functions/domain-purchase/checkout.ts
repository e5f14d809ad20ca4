/**
 * POST /domain-purchase/checkout { billing_type?, purchase_source? }: the caller's cart becomes
 * an order and the provider's checkout for it (payment flow `domain-purchase`). Prices come from
 * the database (app.cart_lines), never from the request. The names are asked at the registrar
 * first: a cart with a name that is no longer free is refused before anything is written.
 *
 * Billing type 1: one Stripe Checkout subscription per order, yearly, at the names' yearly price
 * (the `shopping-cart` subscription that renews them); extra years are one-time items of the
 * first invoice, the plan's first-year discount a one-time coupon.
 */
import { cardCustomerOf } from '../_shared/billing/customer.ts';
import type { CardBilling } from '../_shared/billing/provider.ts';
import { HttpError } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import { type PurchaseRegistrar, registrarCode } from './registrar-port.ts';

export const CART_EMPTY = 'Nothing to checkout, the cart is empty';
export const CHECKOUT_FAILED = 'We could not start the payment. Please try again later.';
export const CARD_ONLY = 'Domains are paid by card (billing type 1) for now.';

export interface CheckoutInput {
  userId: string;
  email: string | null;
  billingType: 1 | 2;
  source: string | null;
  origin: string;
}

export interface Line {
  domain: string;
  years: number;
  yearly_amount: string;
  discount: string;
  amount: string;
  currency: string;
}

export const invalid = (field: string, message: string, code = 'validation_failed') =>
  new HttpError(422, message, code, { [field]: [message] });

export function readCheckoutBody(body: Record<string, unknown>): {
  billingType: 1 | 2;
  source: string | null;
} {
  const type = body.billing_type ?? 1;
  if (type !== 1 && type !== 2 && type !== '1' && type !== '2')
    throw invalid('billing_type', 'The billing type must be 1 (card) or 2 (checkout).');
  const source = body.purchase_source ?? null;
  if (source !== null && source !== 'freetrial' && source !== 'domain-purchase')
    throw invalid('purchase_source', 'Unknown purchase source.');
  return { billingType: Number(type) === 2 ? 2 : 1, source };
}

/** Every cart name must still be free at the registrar; else a 422 naming them. */
export async function confirmAvailable(
  registrar: PurchaseRegistrar,
  names: string[],
): Promise<void> {
  let answers;
  try {
    answers = await registrar.checkAvailability(names);
  } catch (error) {
    console.error('domain-purchase: availability before checkout', error);
    throw new HttpError(
      registrarCode(error) === 'invalid' ? 422 : 503,
      'The domain registrar could not confirm your domains. Please try again later.',
      'registrar_unavailable',
    );
  }
  const free = new Set(
    answers.filter((a) => a.purchasable && !a.premium).map((a) => a.domainName.toLowerCase()),
  );
  const gone = names.filter((name) => !free.has(name));
  if (gone.length > 0)
    throw invalid(
      'cart',
      `No longer available: ${gone.join(', ')}. Remove ${gone.length === 1 ? 'it' : 'them'} from the cart.`,
      'domain_taken',
    );
}

export async function startCheckout(
  db: Sql,
  billing: () => CardBilling,
  registrar: PurchaseRegistrar,
  input: CheckoutInput,
): Promise<{ order_id: string; checkout: Record<string, unknown> }> {
  if (input.billingType === 2) throw invalid('billing_type', CARD_ONLY);
  const lines = await db<Line[]>`
    select domain, years, yearly_amount::text, discount::text, amount::text, currency
    from app.cart_lines(${input.userId})`;
  if (lines.length === 0) throw invalid('cart', CART_EMPTY, 'cart_empty');
  await confirmAvailable(
    registrar,
    lines.map((line) => line.domain),
  );

  let orderId: string;
  try {
    const [row] = await db<{ id: string }[]>`
      select app.create_domain_order(${input.userId}, 1::smallint, ${input.source}) as id`;
    orderId = row!.id;
  } catch (error) {
    const { message, detail } = error as { message?: string; detail?: string };
    if (message === 'cart_empty') throw invalid('cart', CART_EMPTY, 'cart_empty');
    if (message === 'domain_taken' || message === 'cart_currencies')
      throw invalid('cart', detail ?? message, message);
    throw error;
  }

  const [account] = await db<{ account_id: string; renewal: string }[]>`
    select account_id, app.domain_order_renewal_amount(id)::text as renewal
    from public.orders where id = ${orderId}`;
  const currency = lines[0]!.currency.toLowerCase();
  const renewal = Number(account!.renewal);
  const extraYears = lines.filter((line) => line.years > 1);
  const discount = lines.reduce((sum, line) => sum + Number(line.discount), 0);
  const metadata = {
    account_id: account!.account_id,
    order_id: orderId,
    kind: 'domain-purchase',
  };
  try {
    const card = billing();
    const customerId = await cardCustomerOf(db, card, account!.account_id, input.email);
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
      oneTimeItems: extraYears.map((line) => ({
        name: `${line.domain}: ${line.years - 1} more year${line.years > 2 ? 's' : ''}`,
        unitAmount: Number(line.yearly_amount) * (line.years - 1),
      })),
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
    // Nothing was paid: the order is cancelled and its names go back to the pool.
    await db`
      update public.purchased_domains set status = 'cancelled'
      where order_id = ${orderId} and status = 'pending'`;
    await db`update public.orders set status = 49 where id = ${orderId} and status = 16`;
    throw new HttpError(502, CHECKOUT_FAILED, 'checkout_failed');
  }
}
