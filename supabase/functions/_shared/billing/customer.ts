import type { Sql } from '../sql.ts';
import type { CardBilling } from './provider.ts';

/**
 * The account's Stripe customer (billing type 1), created the first time it pays. Two first
 * payments at once both create one at Stripe; the row that lands first wins and both use it
 * (the loser stays an unused customer at Stripe). The first billing customer of an account is
 * its preferred one.
 */
export async function cardCustomerOf(
  db: Sql,
  billing: Pick<CardBilling, 'createCustomer'>,
  accountId: string,
  email: string | null,
): Promise<string> {
  const [existing] = await db<{ billing_id: string }[]>`
    select billing_id from public.billing_customers
    where account_id = ${accountId} and billing_type = 1`;
  if (existing) return existing.billing_id;
  const created = await billing.createCustomer({ email, metadata: { account_id: accountId } });
  await db`
    insert into public.billing_customers (account_id, billing_type, billing_id, is_preferred)
    values (${accountId}, 1, ${created.id},
      not exists (select 1 from public.billing_customers where account_id = ${accountId}))
    on conflict (account_id, billing_type) do nothing`;
  const [winner] = await db<{ billing_id: string }[]>`
    select billing_id from public.billing_customers
    where account_id = ${accountId} and billing_type = 1`;
  return winner!.billing_id;
}
