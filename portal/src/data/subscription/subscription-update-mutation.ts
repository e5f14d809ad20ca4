import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingInterval } from '@shortlane/shared/constants.ts';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { useSupabase } from '../../lib/servicesContext.ts';
import { userScope } from '../keys.ts';
import { useUserId } from '../use-user-id.ts';
import { subscriptionStateKeys } from './keys.ts';
import { subscriptionApiPath, type SubscriptionScope } from './scope.ts';

export interface PlanChoice {
  subscription: string;
  interval: BillingInterval;
  currency: string;
}

/** What a plan change does (`GET {scope}/subscription/preview`), as Stripe computes it. */
export type UpdatePreview =
  | {
      change: 'upgrade';
      plan: { name: string; interval: BillingInterval; amount: number; currency: string };
      amount_due: number;
      currency: string;
      lines: { description: string | null; amount: number }[];
    }
  | {
      change: 'downgrade';
      plan: { name: string; interval: BillingInterval; amount: number; currency: string };
      starts_at: string | null;
    };

/** A refusal the page explains itself: 402 (payment) and 406 (the server's reason). */
export class UpdateRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function refusal(error: unknown): Promise<never> {
  const response = (error as { context?: unknown }).context;
  if (response instanceof Response && (response.status === 402 || response.status === 406)) {
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { message?: string };
    throw new UpdateRefused(response.status, body.message ?? '');
  }
  throw error;
}

export function useUpdatePreviewQuery(scope: SubscriptionScope, choice: PlanChoice | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: subscriptionStateKeys.preview(
      userId ?? '',
      scope,
      choice?.subscription ?? '',
      choice?.interval ?? '',
    ),
    enabled: userId != null && choice != null,
    retry: false,
    queryFn: async (): Promise<UpdatePreview> => {
      const query = new URLSearchParams({
        subscription: choice!.subscription,
        interval: choice!.interval,
        currency: choice!.currency,
      });
      const { data, error } = await supabase.functions.invoke<UpdatePreview>(
        `${subscriptionApiPath(scope)}/preview?${query}`,
        { method: 'GET', headers: { [OWN_ERROR_NOTICE_HEADER]: '1' } },
      );
      if (error) return await refusal(error);
      return data!;
    },
  });
}

/**
 * `PUT {scope}/subscription` (app-shell 7's update url). 402 and 406 reject with UpdateRefused
 * and are not announced globally: the page handles them as app-shell 8 says.
 */
export function useSubscriptionUpdateMutation(scope: SubscriptionScope) {
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useMutation({
    mutationFn: async (choice: PlanChoice): Promise<{ change: 'upgrade' | 'downgrade' }> => {
      const { data, error } = await supabase.functions.invoke<{ change: 'upgrade' | 'downgrade' }>(
        subscriptionApiPath(scope),
        {
          method: 'PUT',
          body: { billing_type: 1, type: 'default', ...choice },
          headers: { [OWN_ERROR_NOTICE_HEADER]: '1' },
        },
      );
      if (error) return await refusal(error);
      return data!;
    },
    onSettled: () =>
      userId ? queryClient.invalidateQueries({ queryKey: userScope(userId) }) : undefined,
  });
}
