import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { userScope } from '../keys.ts';
import { useUserId } from '../use-user-id.ts';
import { subscriptionStateKeys } from './keys.ts';
import { subscriptionApiPath, type SubscriptionScope } from './scope.ts';
import type { SubscriptionState } from './subscription-state-query.ts';
import type { CheckoutData } from '../billing.ts';

/** The lifecycle calls of app-shell 7 that take no plan. */
export type SubscriptionAction =
  'cancel' | 'cancel-now' | 'resume' | 'reactivate' | 'cancel-scheduled';

const CALLS: Record<SubscriptionAction, { method: 'DELETE' | 'PUT' | 'PATCH'; suffix: string }> = {
  cancel: { method: 'DELETE', suffix: '' },
  'cancel-now': { method: 'DELETE', suffix: '/now' },
  resume: { method: 'PUT', suffix: '/resume' },
  reactivate: { method: 'PATCH', suffix: '' },
  'cancel-scheduled': { method: 'DELETE', suffix: '/scheduled' },
};

/**
 * Runs one action. Refusals reject with supabase-js' FunctionsHttpError; the global handler
 * leaves their notice to the page (useSubscriptionActions).
 */
export function useSubscriptionActionMutation(scope: SubscriptionScope) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (action: SubscriptionAction) => {
      const call = CALLS[action];
      // A cancel names the provider of the subscription the page shows (the server refuses a
      // cancel of another one than the current).
      const shown = queryClient.getQueryData<SubscriptionState>(
        subscriptionStateKeys.state(userId ?? '', scope),
      );
      const billingType = shown?.subscription?.billing_type ?? 1;
      const { data, error } = await supabase.functions.invoke<{ checkout?: CheckoutData }>(
        `${subscriptionApiPath(scope)}${call.suffix}`,
        {
          method: call.method,
          // The page says what went wrong (the spec's "… failed" messages, the 402 path).
          headers: { [OWN_ERROR_NOTICE_HEADER]: '1' },
          ...(call.method === 'DELETE' && call.suffix !== '/scheduled'
            ? { body: { billing_type: billingType } }
            : {}),
        },
      );
      if (error) throw error;
      // Reactivating a Paddle plan is a new checkout (Paddle charges no saved card outside one).
      return data?.checkout ?? null;
    },
    onSettled: () =>
      userId ? queryClient.invalidateQueries({ queryKey: userScope(userId) }) : undefined,
  });
}
