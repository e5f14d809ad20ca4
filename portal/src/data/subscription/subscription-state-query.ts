import { useQuery } from '@tanstack/react-query';
import type { BillingInterval } from '@shortlane/shared/constants.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { useUserId } from '../use-user-id.ts';
import { subscriptionStateKeys } from './keys.ts';
import { subscriptionApiPath, type SubscriptionScope } from './scope.ts';

/** One subscription as the billing function answers it. */
export interface ScopeSubscription {
  id: string;
  /** The account billed (a team's or an organization's for those scopes). */
  account_id?: string;
  name: string;
  interval: BillingInterval;
  amount: number;
  currency: string;
  /** 1: Stripe (card); 2: Paddle (overlay checkout). */
  billing_type: number | null;
  billing_status: string | null;
  ends_at: string | null;
  trial_ends_at: string | null;
  period_starts_at: string | null;
  period_ends_at: string | null;
}

/**
 * The scope's plan (its latest provider subscription: current, in its grace period, or ended) and
 * its pending downgrade, from `GET {scope}/subscription`; a 403 when the caller may not manage
 * the account's billing.
 */
export interface SubscriptionState {
  subscription: ScopeSubscription | null;
  future: ScopeSubscription | null;
}

export function useSubscriptionStateQuery(scope: SubscriptionScope) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: subscriptionStateKeys.state(userId ?? '', scope),
    enabled: userId != null,
    queryFn: async (): Promise<SubscriptionState> => {
      const { data, error } = await supabase.functions.invoke<SubscriptionState>(
        subscriptionApiPath(scope),
        { method: 'GET' },
      );
      if (error) throw error;
      return { subscription: data?.subscription ?? null, future: data?.future ?? null };
    },
  });
}
