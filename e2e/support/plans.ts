import type { TestUser } from './factories.ts';
import { serviceClient } from './shell.ts';

interface DemoPlan {
  planId: string;
  priceId: string;
  name: string;
  amount: number;
}

/** The demo Pro plan's yearly price (supabase/seeds/10_accounts.sql): analytics, custom aliases,
 * tags, expiry, destination changes. */
const PRO: DemoPlan = {
  planId: '00000000-0000-4000-8000-000000000602',
  priceId: '00000000-0000-4000-8000-000000000622',
  name: 'pro',
  amount: 12900,
};

/** The demo Business plan's yearly price: Pro's features and redirect routes, bulk, logs… */
const BUSINESS: DemoPlan = {
  planId: '00000000-0000-4000-8000-000000000603',
  priceId: '00000000-0000-4000-8000-000000000632',
  name: 'business',
  amount: 49900,
};

/** The demo Enterprise plan's yearly price: everything, webhooks included. */
const ENTERPRISE: DemoPlan = {
  planId: '00000000-0000-4000-8000-000000000604',
  priceId: '00000000-0000-4000-8000-000000000642',
  name: 'enterprise',
  amount: 1798800,
};

/** Puts a user's personal account on Pro, as a paid checkout would. */
export function subscribeToPro(user: TestUser): Promise<void> {
  return subscribeTo(user, PRO);
}

/** Puts a user's personal account on Business, as a paid checkout would. */
export function subscribeToBusiness(user: TestUser): Promise<void> {
  return subscribeTo(user, BUSINESS);
}

/** Puts a user's personal account on Enterprise, as a paid checkout would. */
export function subscribeToEnterprise(user: TestUser): Promise<void> {
  return subscribeTo(user, ENTERPRISE);
}

/** Puts any account (a team's, an organization's) on Enterprise, as a paid checkout would. */
export function subscribeAccountToEnterprise(accountId: string): Promise<void> {
  return subscribeAccount(accountId, ENTERPRISE);
}

async function subscribeTo(user: TestUser, plan: DemoPlan): Promise<void> {
  const { data: profile, error } = await serviceClient()
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  if (error) throw new Error(`No profile for ${user.email}: ${error.message}`);
  await subscribeAccount(profile.personal_account_id, plan);
}

async function subscribeAccount(accountId: string, plan: DemoPlan): Promise<void> {
  const { error } = await serviceClient()
    .from('subscriptions')
    .insert({
      account_id: accountId,
      plan_id: plan.planId,
      price_id: plan.priceId,
      name: plan.name,
      group: plan.name,
      interval: 'yearly',
      amount: plan.amount,
      currency: 'USD',
      billing_type: 1,
      billing_status: 'active',
      period_starts_at: new Date(Date.now() - 86_400_000).toISOString(),
      period_ends_at: new Date(Date.now() + 364 * 86_400_000).toISOString(),
    });
  if (error) throw new Error(`Could not subscribe ${accountId}: ${error.message}`);
}
