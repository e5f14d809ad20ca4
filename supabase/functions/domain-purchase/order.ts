/**
 * POST /domain-purchase/checkout { billing_type?, purchase_source? }: the caller's cart becomes
 * an order and the provider's checkout for it (payment flow `domain-purchase`). Prices come from
 * the database (app.cart_lines), never from the request. The names are asked at the registrar
 * first: a cart with a name that is no longer free is refused before anything is written.
 *
 * What the two checkouts share (checkout.ts for Stripe, paddle-checkout.ts for Paddle): the
 * request read, the cart turned into an order, what its first payment charges beside the yearly
 * renewal, and the order given up when no checkout could be opened.
 */
import { HttpError } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import { type PurchaseRegistrar, registrarCode } from './registrar-port.ts';

export const CART_EMPTY = 'Nothing to checkout, the cart is empty';
export const CHECKOUT_FAILED = 'We could not start the payment. Please try again later.';

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

/**
 * The cart as an order of the given billing type (status 16), after the registrar confirmed each
 * name is still free; the order's account and yearly renewal price with its lines.
 */
export async function openDomainOrder(
  db: Sql,
  registrar: PurchaseRegistrar,
  input: CheckoutInput,
  billingType: 1 | 2,
) {
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
      select app.create_domain_order(${input.userId}, ${billingType}::smallint, ${input.source}) as id`;
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

/** Nothing was paid: the order is cancelled and its names go back to the pool. */
export async function abandonDomainOrder(db: Sql, orderId: string): Promise<void> {
  await db`
    update public.purchased_domains set status = 'cancelled'
    where order_id = ${orderId} and status = 'pending'`;
  await db`update public.orders set status = 49 where id = ${orderId} and status = 16`;
}
