import { MESSAGES } from '@shortlane/shared/messages.ts';
import { NOTICE_DURATION_MS, POST_ACTION_WAIT_MS } from '@shortlane/shared/constants.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { refreshAppState } from '../../data/refresh.ts';
import {
  useSubscriptionActionMutation,
  type SubscriptionAction,
} from '../../data/subscription/subscription-action-mutation.ts';
import { subscriptionPaths, type SubscriptionScope } from '../../data/subscription/scope.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { paymentMethodCheckout } from '../../data/billing-documents/billing-documents-calls.ts';
import { useSubscriptionStateQuery } from '../../data/subscription/subscription-state-query.ts';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SUCCESS: Record<SubscriptionAction, string> = {
  cancel: 'Your subscription is cancelled. It stays active until the end of the period.',
  'cancel-now': 'Your subscription has ended.',
  resume: 'Your subscription is resumed.',
  reactivate: 'Your subscription is active again.',
  'cancel-scheduled': 'Your plan stays as it is.',
};

const FAILED: Record<SubscriptionAction, string> = {
  cancel: MESSAGES.subscriptionUpdateFailed,
  'cancel-now': MESSAGES.subscriptionUpdateFailed,
  resume: MESSAGES.subscriptionResumeFailed,
  reactivate: MESSAGES.subscriptionReactivateFailed,
  'cancel-scheduled': MESSAGES.subscriptionUpdateFailed,
};

/** The server's message of a refused call, when it sent one. */
export async function refusalMessage(
  error: unknown,
): Promise<{ status: number; message: string | null }> {
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) return { status: 0, message: null };
  try {
    const body = (await response.clone().json()) as { message?: unknown };
    return {
      status: response.status,
      message: typeof body.message === 'string' && body.message ? body.message : null,
    };
  } catch {
    return { status: response.status, message: null };
  }
}

/**
 * The spec's answer to a 402 (app-shell 8): the declined notice, then for the first provider
 * the payment page, for the second a payment-method update checkout (Paddle's overlay, which
 * for a past-due plan also collects what is owed), back to the subscription page after.
 */
export function usePaymentDeclined(scope: SubscriptionScope) {
  const notify = useNotify();
  const navigate = useNavigate();
  const supabase = useSupabase();
  // Which provider the plan is with (loaded here too, for a page opened directly).
  const state = useSubscriptionStateQuery(scope);
  return async () => {
    notify({
      message: MESSAGES.paymentDeclined,
      durationMs: NOTICE_DURATION_MS.default,
      tone: 'error',
    });
    const links = subscriptionPaths(scope);
    const shown = state.data ?? (await state.refetch()).data;
    if (shown?.subscription?.billing_type === 2) {
      try {
        const page = await paymentMethodCheckout(
          supabase,
          shown.subscription.account_id ?? null,
          links.subscription,
          2,
        );
        window.location.assign(page.payment_url);
        return;
      } catch (error) {
        console.error('billing: payment-method update not opened', error);
      }
    }
    void navigate(links.paymentMethod);
  };
}

/**
 * Runs a lifecycle action as app-shell 4 says: the call, a 3 s wait, a state refresh, then a
 * success notice. A declined payment (402) says so and goes to the payment page; another
 * refusal shows the server's reason, or the spec's "… failed" message.
 */
export function useSubscriptionActions(scope: SubscriptionScope) {
  const mutation = useSubscriptionActionMutation(scope);
  const queryClient = useQueryClient();
  const userId = useUserId();
  const notify = useNotify();
  const navigate = useNavigate();
  const [running, setRunning] = useState<SubscriptionAction | null>(null);
  const declined = usePaymentDeclined(scope);

  const run = async (action: SubscriptionAction, after?: string): Promise<boolean> => {
    setRunning(action);
    try {
      const checkout = await mutation.mutateAsync(action);
      if (checkout) {
        window.location.assign(checkout.payment_url);
        return true;
      }
      await wait(POST_ACTION_WAIT_MS);
      if (userId) await refreshAppState(queryClient, userId);
      notify({ message: SUCCESS[action], durationMs: NOTICE_DURATION_MS.default, tone: 'success' });
      if (after) void navigate(after);
      return true;
    } catch (error) {
      const { status, message } = await refusalMessage(error);
      if (status === 402) {
        await declined();
      } else {
        notify({
          message: status >= 500 || !message ? FAILED[action] : message,
          durationMs: NOTICE_DURATION_MS.default,
          tone: 'error',
        });
      }
      return false;
    } finally {
      setRunning(null);
    }
  };
  return { run, running };
}
