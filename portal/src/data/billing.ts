import { useMutation, useQuery } from '@tanstack/react-query';
import type { BillingInterval } from '@shortlane/shared/constants.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { userScope } from './keys.ts';
import { useUserId } from './use-user-id.ts';

/**
 * The `billing` function (billing types 1 and 2): the spec's new-subscription call and its
 * checkout data, and the checkout's status (the lifecycle calls, for either provider, are in
 * data/subscription/). Refusals reject with supabase-js'
 * FunctionsHttpError; the global response handler has already announced them.
 */

export const CREATE_FAILED_MESSAGE =
  'We were unable to create your subscription. Please contact customer support.';
export const PAYMENT_DECLINED_MESSAGE = 'Payment declined. Please update your payment method.';

export interface CheckoutData {
  /** 1: the provider's page by redirect; 2: /paddle/payment, which opens Paddle's overlay. */
  billing_type: 1 | 2;
  customer: { id: string; auth_token: string | null };
  discount_code: string | null;
  prices: { price_id: string }[];
  payment_method: string | null;
  transaction_id: string;
  success_url: string;
  locale: string;
  allow_discounts: boolean;
  payment_methods: string[];
  /** Where the browser goes to pay: the provider's page, or our /paddle/payment link. */
  payment_url: string;
}

export interface NewSubscription {
  /** Unset: the account's preferred provider, else the server's default. */
  billing_type?: 1 | 2;
  subscription: string;
  interval: BillingInterval;
  currency: string;
  trial: boolean;
  coupon?: string;
  /** For a team's or an organization's plan (slugs; `_` for a team outside organizations). */
  organization?: string;
  team?: string;
}

export interface BillingSubscription {
  name: string;
  interval: BillingInterval;
  billing_status: string | null;
  ends_at: string | null;
  trial_ends_at: string | null;
  period_ends_at: string | null;
}

export interface CheckoutStatus {
  status: 'open' | 'complete' | 'expired';
  subscription: BillingSubscription | null;
}

export async function newSubscription(
  supabase: PortalSupabase,
  order: NewSubscription,
): Promise<CheckoutData> {
  const { data, error } = await supabase.functions.invoke<{ checkout?: CheckoutData }>(
    'billing/new-subscription',
    { method: 'POST', body: { type: 'default', ...order } },
  );
  if (error) throw error;
  if (!data?.checkout?.payment_url) throw new Error(CREATE_FAILED_MESSAGE);
  return data.checkout;
}

export function useNewSubscriptionMutation() {
  const supabase = useSupabase();
  return useMutation({ mutationFn: (order: NewSubscription) => newSubscription(supabase, order) });
}

export const checkoutKeys = {
  status: (userId: string, sessionId: string) =>
    [...userScope(userId), 'checkout', sessionId] as const,
};

/** How often the success page asks whether the provider's webhook has arrived. */
export const CHECKOUT_POLL_MS = 1_000;

export function useCheckoutStatusQuery(sessionId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: checkoutKeys.status(userId ?? '', sessionId ?? ''),
    enabled: userId != null && sessionId != null,
    queryFn: async (): Promise<CheckoutStatus> => {
      const { data, error } = await supabase.functions.invoke<CheckoutStatus>(
        `billing/checkout/${encodeURIComponent(sessionId!)}`,
        { method: 'GET' },
      );
      if (error) throw error;
      return data!;
    },
    // Until the subscription is recorded; a timer between asks, never a busy loop.
    refetchInterval: (query) => (query.state.data?.subscription ? false : CHECKOUT_POLL_MS),
  });
}
