import { invalidField, PaddleError } from './errors.ts';
import { addPeriod, type PaddleWorld, type Subscription } from './world.ts';

type Json = Record<string, unknown>;

/** A one-time charge as POST /subscriptions/{id}/charge records it (non-catalog items). */
export interface OneTimeCharge {
  subscription_id: string;
  effective_from: 'next_billing_period' | 'immediately';
  items: {
    quantity: number;
    /** The price entity Paddle keeps for it (a non-catalog price is made one, `custom`). */
    price_id: string;
    price: {
      description: string;
      name: string | null;
      unit_price: { amount: string; currency_code: string };
      custom_data: Record<string, unknown> | null;
    };
  }[];
  created_at: string;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * POST /subscriptions/{id}/charge: one-time charges, billed with the next renewal
 * (`next_billing_period`) or at once (`immediately`), as Paddle Billing takes them. The sandbox
 * keeps them per subscription (`charges`) and answers the subscription, as Paddle does: the
 * charges are not on the subscription entity; those for the next period are listed in its
 * `next_transaction` (GET /subscriptions/{id}?include=next_transaction), each line naming its
 * price entity (a non-catalog price is made one, with its custom data).
 * Only non-catalog prices (`price` with `unit_price` and a `product`) or catalog `price_id`s.
 */
export class PaddleOneTimeCharges {
  readonly charges = new Map<string, OneTimeCharge[]>();

  constructor(private readonly world: PaddleWorld) {}

  charge(id: string, body: Json): Subscription {
    const subscription = this.world.subscription(id);
    if (subscription.status !== 'active' && subscription.status !== 'past_due')
      throw new PaddleError(
        400,
        'subscription_locked_pending_changes',
        'subscription must be active to create a one-time charge',
        undefined,
        'request_error',
        'subscriptions',
      );
    const effective = body.effective_from;
    if (effective !== 'next_billing_period' && effective !== 'immediately')
      throw invalidField('effective_from', 'must be next_billing_period or immediately');
    if (!Array.isArray(body.items) || body.items.length === 0)
      throw invalidField('items', 'must contain at least one item');
    const items = body.items.map((raw: unknown, index: number) => {
      const path = `items[${index}]`;
      if (!isObject(raw)) throw invalidField(path, 'must be an object');
      const quantity = raw.quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1)
        throw invalidField(`${path}.quantity`, 'must be an integer of at least 1');
      if (typeof raw.price_id === 'string') {
        const price = this.world.price(raw.price_id);
        return {
          quantity,
          price_id: price.id,
          price: {
            description: price.description,
            name: price.name,
            unit_price: price.unit_price,
            custom_data: price.custom_data,
          },
        };
      }
      const price = raw.price;
      if (!isObject(price)) throw invalidField(`${path}.price`, 'price or price_id is required');
      const unit = price.unit_price;
      if (
        !isObject(unit) ||
        typeof unit.amount !== 'string' ||
        !/^\d+$/.test(unit.amount) ||
        typeof unit.currency_code !== 'string'
      )
        throw invalidField(`${path}.price.unit_price`, 'must have amount and currency_code');
      if (unit.currency_code !== subscription.currency_code)
        throw invalidField(
          `${path}.price.unit_price.currency_code`,
          'must match the subscription currency',
        );
      if (typeof price.description !== 'string' || price.description === '')
        throw invalidField(`${path}.price.description`, 'is required');
      if (!isObject(price.product) && typeof price.product_id !== 'string')
        throw invalidField(`${path}.price`, 'product or product_id is required');
      const entity = this.world.createPrice(price, `${path}.price.`, 'custom');
      return {
        quantity,
        price_id: entity.id,
        price: {
          description: price.description,
          name: typeof price.name === 'string' ? price.name : null,
          unit_price: { amount: unit.amount, currency_code: unit.currency_code },
          custom_data: isObject(price.custom_data) ? price.custom_data : null,
        },
      };
    });
    const charge: OneTimeCharge = {
      subscription_id: id,
      effective_from: effective,
      items,
      created_at: this.world.stamp(),
    };
    this.charges.set(id, [...(this.charges.get(id) ?? []), charge]);
    return subscription;
  }

  /**
   * The subscription's `next_transaction` as Paddle includes it on request: the renewal's
   * recurring items and the one-time charges for the next period; none once it is canceled.
   */
  nextTransaction(subscription: Subscription): Json | null {
    const period = subscription.current_billing_period;
    if (subscription.status === 'canceled' || !period) return null;
    const items = [
      ...subscription.items
        .filter((item) => item.status !== 'inactive')
        .map((item) => ({ price: item.price, quantity: item.quantity, proration: null })),
      ...(this.charges.get(subscription.id) ?? [])
        .filter((charge) => charge.effective_from === 'next_billing_period')
        .flatMap((charge) => charge.items)
        .map((item) => ({
          price: this.world.price(item.price_id),
          quantity: item.quantity,
          proration: null,
        })),
    ];
    const details = this.world.detailsOf(items, subscription.currency_code, {
      amounts: items.map((item) => Number(item.price.unit_price.amount) * item.quantity),
    });
    return {
      billing_period: {
        starts_at: period.ends_at,
        ends_at: addPeriod(new Date(period.ends_at), subscription.billing_cycle).toISOString(),
      },
      details: {
        tax_rates_used: details.tax_rates_used,
        totals: details.totals,
        line_items: details.line_items,
      },
      adjustments: [],
    };
  }
}
