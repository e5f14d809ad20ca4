import type { TestUser } from './factories.ts';
import { serviceClient } from './shell.ts';

/** The demo Pro plan's yearly price (supabase/seeds/10_accounts.sql): analytics, custom aliases,
 * tags, expiry, destination changes. */
const PRO = {
  planId: '00000000-0000-4000-8000-000000000602',
  priceId: '00000000-0000-4000-8000-000000000622',
};

/** Puts a user's personal account on Pro, as a paid checkout would. */
export async function subscribeToPro(user: TestUser): Promise<void> {
  const admin = serviceClient();
  const { data: profile, error } = await admin
    .from('profiles')
    .select('personal_account_id')
    .eq('id', user.id)
    .single();
  if (error) throw new Error(`No profile for ${user.email}: ${error.message}`);
  const { error: insertError } = await admin.from('subscriptions').insert({
    account_id: profile.personal_account_id,
    plan_id: PRO.planId,
    price_id: PRO.priceId,
    name: 'pro',
    group: 'pro',
    interval: 'yearly',
    amount: 12900,
    currency: 'USD',
    billing_type: 1,
    billing_status: 'active',
    period_starts_at: new Date(Date.now() - 86_400_000).toISOString(),
    period_ends_at: new Date(Date.now() + 364 * 86_400_000).toISOString(),
  });
  if (insertError) throw new Error(`Could not subscribe ${user.email}: ${insertError.message}`);
}
