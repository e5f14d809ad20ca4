/**
 * What the sandbox charges: a price list per TLD in USD (the first year, and each year after),
 * in the range a retail registrar such as Name.com asks in 2026. A name is registrable when one
 * label stands before a TLD on this list (the longest that fits: shop.co.uk is under co.uk). Premium names have their own
 * price (see RegistrarRegistry).
 */
export interface TldPrice {
  registration: number;
  renewal: number;
}

export const DEFAULT_TLD_PRICES: Readonly<Record<string, TldPrice>> = {
  // The seed's tld_prices charge these as their cost (supabase/seeds/10_accounts.sql), so that
  // local margins add up: keep the two in step.
  com: { registration: 10.99, renewal: 10.99 },
  net: { registration: 12.99, renewal: 12.99 },
  io: { registration: 39.99, renewal: 39.99 },
  'co.uk': { registration: 8.99, renewal: 8.99 },
  org: { registration: 10.99, renewal: 16.99 },
  co: { registration: 11.99, renewal: 32.99 },
  app: { registration: 14.99, renewal: 18.99 },
  dev: { registration: 12.99, renewal: 16.99 },
  link: { registration: 9.99, renewal: 11.99 },
  xyz: { registration: 2.99, renewal: 14.99 },
  me: { registration: 5.99, renewal: 21.99 },
  info: { registration: 4.99, renewal: 24.99 },
  biz: { registration: 7.99, renewal: 21.99 },
  us: { registration: 6.99, renewal: 12.99 },
  uk: { registration: 8.99, renewal: 8.99 },
  site: { registration: 2.99, renewal: 34.99 },
  online: { registration: 2.99, renewal: 39.99 },
  shop: { registration: 3.99, renewal: 39.99 },
};

/** Whole cents, as prices are quoted. */
export const cents = (amount: number) => Math.round(amount * 100) / 100;

/** The price of `years` years: the first at the registration price, the rest at renewal. */
export function registrationTotal(price: TldPrice, years: number): number {
  return cents(price.registration + price.renewal * (years - 1));
}
