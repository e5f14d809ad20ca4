import { Alert, Button, Group, Loader, Paper, Progress, Stack, Table, Text } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { NOTICE_DURATION_MS, type BillingInterval } from '@shortlane/shared/constants.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { refreshAppState } from '../../data/refresh.ts';
import { subscriptionPaths, type SubscriptionScope } from '../../data/subscription/scope.ts';
import { useSubscriptionStateQuery } from '../../data/subscription/subscription-state-query.ts';
import {
  UpdateRefused,
  useSubscriptionUpdateMutation,
  useUpdatePreviewQuery,
} from '../../data/subscription/subscription-update-mutation.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import { planTitle } from '../../pages/PricingPage/planText.ts';
import { useAppState } from '../../state/appState.ts';
import { formatDate } from './SubscriptionPanel.tsx';
import {
  refusalMessage,
  usePaymentDeclined,
  useSubscriptionActions,
} from './useSubscriptionActions.ts';

/**
 * subscription/cancel: at the end of the period (the plan stays until then: the grace period)
 * or now (the `/now` call). Each is followed by the 3 s wait and the state refresh.
 */
export function CancelPanel({ scope }: { scope: SubscriptionScope }) {
  const { locale } = useAppState();
  const state = useSubscriptionStateQuery(scope);
  const { run, running } = useSubscriptionActions(scope);
  const links = subscriptionPaths(scope);
  const subscription = state.data?.subscription;
  if (state.isPending) return <Loader size="sm" />;
  if (!subscription || subscription.ends_at != null)
    return (
      <Alert title="Nothing to cancel">
        There is no active subscription to cancel.{' '}
        <Link to={links.subscription}>Back to the subscription</Link>
      </Alert>
    );
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Text>
          You are on {planTitle(subscription.name)} ({subscription.interval}).
          {subscription.period_ends_at &&
            ` Cancelled at the end of the period, it stays active until ${formatDate(subscription.period_ends_at, locale)} and you can resume it until then.`}
        </Text>
        <Group>
          <Button
            color="red"
            loading={running === 'cancel'}
            disabled={running != null}
            onClick={() => void run('cancel', links.subscription)}
          >
            Cancel at the end of the period
          </Button>
          <Button
            color="red"
            variant="outline"
            loading={running === 'cancel-now'}
            disabled={running != null}
            onClick={() => void run('cancel-now', links.subscription)}
          >
            Cancel now
          </Button>
          <Button variant="default" component={Link} to={links.subscription}>
            Keep my plan
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * subscription/update/{subscription}/{interval}: what the change does, as the provider computes
 * it (an upgrade's charge now, prorated; a downgrade's start at the period end), then the change.
 * An upgrade waits for the provider on the verification page; 402 shows the declined notice and
 * goes to the payment page (Stripe) or the payment-method update checkout (Paddle), 406 shows
 * the server's reason (app-shell 8).
 */
export function UpdatePanel({
  scope,
  plan,
  interval,
}: {
  scope: SubscriptionScope;
  plan: string;
  interval: string;
}) {
  const { locale, currency } = useAppState();
  const links = subscriptionPaths(scope);
  const notify = useNotify();
  const navigate = useNavigate();
  const valid = interval === 'monthly' || interval === 'yearly';
  const choice = valid
    ? { subscription: plan, interval: interval as BillingInterval, currency }
    : null;
  const preview = useUpdatePreviewQuery(scope, choice);
  const update = useSubscriptionUpdateMutation(scope);
  const declined = usePaymentDeclined(scope);

  if (!choice) return <Alert color="red">The billing period must be monthly or yearly.</Alert>;
  if (preview.isPending) return <Loader size="sm" aria-label="Computing the change" />;
  if (preview.isError) {
    const message =
      preview.error instanceof UpdateRefused && preview.error.message
        ? preview.error.message
        : MESSAGES.subscriptionUpdateFailed;
    return (
      <Alert color="red" role="alert" title="This change is not possible">
        {message} <Link to={links.subscription}>Back to the subscription</Link>
      </Alert>
    );
  }
  const change = preview.data;
  const confirm = () =>
    update.mutate(choice, {
      onSuccess: (result) => {
        if (result.change === 'upgrade') void navigate(links.verification(plan, interval));
        else {
          notify({
            message: `Your plan changes to ${planTitle(plan)} (${interval}) at the end of the period.`,
            durationMs: NOTICE_DURATION_MS.default,
            tone: 'success',
          });
          void navigate(links.subscription);
        }
      },
      onError: (error) => {
        if (error instanceof UpdateRefused && error.status === 402) {
          void declined();
          return;
        }
        const show = (message: string) =>
          notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'error' });
        if (error instanceof UpdateRefused)
          show(error.message || MESSAGES.subscriptionUpdateFailed);
        else
          void refusalMessage(error).then(({ status, message }) =>
            show(status >= 500 || !message ? MESSAGES.subscriptionUpdateFailed : message),
          );
      },
    });

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Text fw={600} data-testid="update-target">
          {planTitle(change.plan.name)} ({change.plan.interval}):{' '}
          {formatMoney(change.plan.amount, change.plan.currency, locale)} per{' '}
          {change.plan.interval === 'monthly' ? 'month' : 'year'}
        </Text>
        {change.change === 'upgrade' ? (
          <>
            <Table aria-label="What you pay now">
              <Table.Tbody>
                {change.lines.map((line, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>{line.description}</Table.Td>
                    <Table.Td ta="right">
                      {formatMoney(line.amount, change.currency, locale)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text data-testid="amount-due">
              Due today: <strong>{formatMoney(change.amount_due, change.currency, locale)}</strong>
            </Text>
          </>
        ) : (
          <Text data-testid="downgrade-start">
            Your current plan stays until{' '}
            {change.starts_at ? formatDate(change.starts_at, locale) : 'the end of the period'}; the
            new plan starts then.
          </Text>
        )}
        <Group>
          <Button loading={update.isPending} onClick={confirm}>
            {change.change === 'upgrade' ? 'Confirm and pay' : 'Schedule the change'}
          </Button>
          <Button variant="default" component={Link} to={links.subscription}>
            Back
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** How long the verification page waits for the webhook before saying it takes too long. */
export const UPDATE_VERIFICATION_BOUND_MS = 30_000;
/** How often it looks (a timer between asks, not a busy loop). */
export const UPDATE_VERIFICATION_POLL_MS = 1_000;

/**
 * subscription/update/verification: an upgrade is recorded when the provider's webhook lands;
 * until the plan shows the new plan and period the page shows its progress, and past the bound
 * the spec's "update too long" message.
 */
export function UpdateVerificationPanel({
  scope,
  plan,
  interval,
  boundMs = UPDATE_VERIFICATION_BOUND_MS,
}: {
  scope: SubscriptionScope;
  plan: string;
  interval: string;
  boundMs?: number;
}) {
  const state = useSubscriptionStateQuery(scope);
  const queryClient = useQueryClient();
  const userId = useUserId();
  const links = subscriptionPaths(scope);
  const [elapsed, setElapsed] = useState(0);
  const current = state.data?.subscription;
  const done = current?.name === plan && current.interval === interval;
  const tooLong = !done && elapsed >= boundMs;

  useEffect(() => {
    if (done || tooLong) return;
    const started = Date.now() - elapsed;
    const timer = setInterval(() => {
      setElapsed(Date.now() - started);
      void state.refetch();
    }, UPDATE_VERIFICATION_POLL_MS);
    return () => clearInterval(timer);
    // Restarted only when the outcome changes; `elapsed` carries on across renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done, tooLong]);

  useEffect(() => {
    if (done && userId) void refreshAppState(queryClient, userId);
  }, [done, userId, queryClient]);

  if (done)
    return (
      <Paper withBorder p="lg" radius="md">
        <Text data-testid="updated-plan">
          You are now on {planTitle(plan)} ({interval}).
        </Text>
        <Button component={Link} to={links.subscription} mt="md">
          See your subscription
        </Button>
      </Paper>
    );
  if (tooLong)
    return (
      <Alert color="yellow" role="alert" title="This takes longer than expected">
        {MESSAGES.subscriptionUpdateTooLong}{' '}
        <Link to={links.subscription}>Back to the subscription</Link>
      </Alert>
    );
  return (
    <Stack gap="sm">
      <Text>Waiting for the payment provider to confirm your plan change…</Text>
      <Progress
        value={Math.min(100, (elapsed / boundMs) * 100)}
        aria-label="Confirmation progress"
        animated
      />
    </Stack>
  );
}
