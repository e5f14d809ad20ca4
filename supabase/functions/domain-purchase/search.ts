/**
 * GET /domain-purchase/search?name=…: the spec's domain status (unknown, available, taken,
 * invalid, in cart) of the name under each active TLD, with its yearly price and, while the
 * plan's discounted_domain_count lasts, the first-year price (at cost).
 */
import { HttpError } from '../_shared/http.ts';
import type { Sql } from '../_shared/sql.ts';
import { type PurchaseRegistrar, registrarCode } from './registrar-port.ts';

export type DomainStatus = 'unknown' | 'available' | 'taken' | 'invalid' | 'in cart';

export interface SearchResult {
  domain: string;
  tld: string;
  status: DomainStatus;
  yearly_amount: number;
  first_year_amount: number;
  currency: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const invalidName = (message: string) =>
  new HttpError(422, message, 'validation_failed', { name: [message] });

/**
 * The label searched: what was typed up to its first dot (so "acme.com" searches "acme"),
 * lower-cased, an internationalized name in its punycode form.
 */
export function searchLabel(raw: string | null): string {
  const typed = (raw ?? '').trim().toLowerCase();
  if (typed === '') throw invalidName('Type a name to search.');
  if (typed.length > 253) throw invalidName('The name is too long.');
  const first = typed.replace(/^https?:\/\//, '').split(/[./]/)[0] ?? '';
  let label = first;
  if (!/^[\x21-\x7e]*$/.test(first)) {
    try {
      label = new URL(`http://${first}`).hostname;
    } catch {
      throw invalidName('Use letters, digits and hyphens only.');
    }
  }
  if (!LABEL.test(label))
    throw invalidName('Use letters, digits and hyphens (not at the start or end), 63 at most.');
  return label;
}

interface PriceRow {
  tld: string;
  yearly_amount: string;
  discounted_amount: string;
  currency: string;
  discounts_left: number;
}

export async function searchDomains(
  db: Sql,
  registrar: PurchaseRegistrar,
  userId: string,
  rawName: string | null,
): Promise<{ name: string; results: SearchResult[] }> {
  const label = searchLabel(rawName);
  const prices = await db<PriceRow[]>`
    select tld, yearly_amount::text, discounted_amount::text, currency, discounts_left
    from app.domain_price_list(app.user_personal_account(${userId}))`;
  const names = prices.map((price) => `${label}.${price.tld}`);
  const known = await db<{ domain: string; in_cart: boolean }[]>`
    select n as domain, exists (
      select 1 from public.shopping_carts c join public.cart_items i on i.cart_id = c.id
      where c.user_id = ${userId} and i.domain = n) as in_cart
    from unnest(${names}::text[]) n
    where exists (select 1 from public.shopping_carts c join public.cart_items i
        on i.cart_id = c.id where c.user_id = ${userId} and i.domain = n)
      or exists (select 1 from public.domains d where d.domain = n)
      or exists (select 1 from public.purchased_domains d where d.domain = n
        and d.status not in ('cancelled', 'failed'))`;
  const local = new Map(known.map((row) => [row.domain, row.in_cart]));
  const ask = names.filter((name) => !local.has(name));

  const answers = new Map<string, DomainStatus>();
  if (ask.length > 0) {
    try {
      for (const answer of await registrar.checkAvailability(ask)) {
        answers.set(
          answer.domainName.toLowerCase(),
          // A premium name is priced by the registry, not by our price list: not sold here.
          answer.purchasable && !answer.premium ? 'available' : 'taken',
        );
      }
    } catch (error) {
      const code = registrarCode(error);
      if (code === 'invalid') for (const name of ask) answers.set(name, 'invalid');
      else console.error('domain-purchase: availability unknown', error);
    }
  }

  return {
    name: label,
    results: prices.map((price, index) => {
      const domain = names[index]!;
      const inCart = local.get(domain);
      const status: DomainStatus =
        inCart === true
          ? 'in cart'
          : inCart === false
            ? 'taken'
            : (answers.get(domain) ?? 'unknown');
      return {
        domain,
        tld: price.tld,
        status,
        yearly_amount: Number(price.yearly_amount),
        first_year_amount: Number(
          price.discounts_left > 0 ? price.discounted_amount : price.yearly_amount,
        ),
        currency: price.currency,
      };
    }),
  };
}
