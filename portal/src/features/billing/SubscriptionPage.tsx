import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { NOTICE_DURATION_MS, POST_ACTION_WAIT_MS } from '@shortlane/shared/constants.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { remainingTrialDays } from '@shortlane/shared/subscriptions.ts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  useCurrentPlanSubscriptionQuery,
  useSubscriptionChangeMutation,
  type PlanSubscription,
  type SubscriptionChange,
} from '../../data/billing.ts';
import { refreshAppState } from '../../data/refresh.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useNotify } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { useQueryClient } from '@tanstack/react-query';
import { planTitle } from '../../pages/PricingPage/planText.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function formatDate(value: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(value),
  );
}

function PlanDetails({ subscription, locale }: { subscription: PlanSubscription; locale: string }) {
  const trialDays = remainingTrialDays(
    { ...subscription, updated_at: subscription.created_at },
    new Date(),
  );
  const ending = subscription.ends_at != null;
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Title order={2} size="h3" data-testid="current-plan">
          {planTitle(subscription.name)}
        </Title>
        <Badge variant="light">{subscription.interval}</Badge>
        {trialDays != null && trialDays > 0 && <Badge color="teal">Trial</Badge>}
        {subscription.billing_status === 'past_due' && <Badge color="red">Past due</Badge>}
      </Group>
      <Text size="sm">
        {formatMoney(subscription.amount, subscription.currency, locale)} per{' '}
        {subscription.interval === 'monthly' ? 'month' : 'year'}
      </Text>
      {trialDays != null && trialDays > 0 && (
        <Text size="sm" data-testid="trial-days-left">
          {trialDays === 1 ? '1 day' : `${trialDays} days`} left in your trial.
        </Text>
      )}
      {subscription.period_ends_at && (
        <Text size="sm" data-testid="renewal">
          {ending
            ? `Your plan ends on ${formatDate(subscription.ends_at!, locale)}.`
            : `Renews on ${formatDate(subscription.period_ends_at, locale)}.`}
        </Text>
      )}
    </Stack>
  );
}

/**
 * settings/subscription: the current plan, its renewal or end date and trial days; cancel at
 * the period end and resume, each followed by the spec's 3 s wait and a state refresh.
 */
export default function SubscriptionPage() {
  usePageTitle('Subscription');
  const { locale } = useAppState();
  const profile = useProfileQuery();
  const current = useCurrentPlanSubscriptionQuery(profile.data?.personal_account_id);
  const change = useSubscriptionChangeMutation(current.data?.billing_type ?? 1);
  const notify = useNotify();
  const queryClient = useQueryClient();
  const userId = useUserId();
  const [waiting, setWaiting] = useState<SubscriptionChange | null>(null);

  const run = async (action: SubscriptionChange) => {
    setWaiting(action);
    try {
      await change.mutateAsync(action);
      await wait(POST_ACTION_WAIT_MS);
      if (userId) await refreshAppState(queryClient, userId);
      notify({
        message:
          action === 'cancel'
            ? 'Your subscription is cancelled. It stays active until the end of the period.'
            : 'Your subscription is resumed.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    } catch {
      // The global response handler announced the refusal.
    } finally {
      setWaiting(null);
    }
  };

  const subscription = current.data;
  return (
    <Stack gap="lg">
      <Title order={1}>Subscription</Title>
      <Paper withBorder p="lg" radius="md">
        {current.isPending && <Loader size="sm" />}
        {current.isError && (
          <Alert color="red" role="alert" title="Your subscription could not be loaded" />
        )}
        {current.isSuccess && !subscription && (
          <Stack gap="sm">
            <Title order={2} size="h3" data-testid="current-plan">
              Free
            </Title>
            <Text size="sm">You are on the free plan.</Text>
            <Button component={Link} to={paths['signup.pricing']} w="fit-content">
              See plans
            </Button>
          </Stack>
        )}
        {subscription && (
          <Stack gap="md">
            <PlanDetails subscription={subscription} locale={locale} />
            {subscription.billing_type != null && (
              <Group>
                {subscription.ends_at == null ? (
                  <Button
                    color="red"
                    variant="light"
                    loading={waiting === 'cancel'}
                    disabled={waiting != null}
                    onClick={() => void run('cancel')}
                  >
                    Cancel subscription
                  </Button>
                ) : (
                  <Button
                    loading={waiting === 'resume'}
                    disabled={waiting != null}
                    onClick={() => void run('resume')}
                  >
                    Resume subscription
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
