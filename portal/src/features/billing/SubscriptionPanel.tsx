import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { NOTICE_DURATION_MS, type BillingInterval } from '@shortlane/shared/constants.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { remainingTrialDays } from '@shortlane/shared/subscriptions.ts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { refusedForBillingAddress, scopeAccountId } from '../../data/billing-address.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { vatInfoToken } from '../billing-documents/vatInfoToken.ts';
import { useNewSubscriptionMutation } from '../../data/billing.ts';
import { usePlansQuery, type PlanRow } from '../../data/plans-query.ts';
import { subscriptionPaths, type SubscriptionScope } from '../../data/subscription/scope.ts';
import {
  useSubscriptionStateQuery,
  type ScopeSubscription,
} from '../../data/subscription/subscription-state-query.ts';
import { useNotify, useSupabase } from '../../lib/servicesContext.ts';
import { planTitle } from '../../pages/PricingPage/planText.ts';
import { href, paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { useRememberedCoupon } from '../../state/coupon.ts';
import { refusalMessage, useSubscriptionActions } from './useSubscriptionActions.ts';

export function formatDate(value: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(value),
  );
}

const PER: Record<BillingInterval, string> = { monthly: 'month', yearly: 'year' };
const OTHER: Record<BillingInterval, BillingInterval> = { monthly: 'yearly', yearly: 'monthly' };

function PlanDetails({
  subscription,
  locale,
}: {
  subscription: ScopeSubscription;
  locale: string;
}) {
  const now = new Date();
  const trialDays = remainingTrialDays(
    { ...subscription, updated_at: subscription.period_starts_at ?? now.toISOString() },
    now,
  );
  const ends = subscription.ends_at ? new Date(subscription.ends_at) : null;
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Title order={2} size="h3" data-testid="current-plan">
          {planTitle(subscription.name)}
        </Title>
        <Badge variant="light">{subscription.interval}</Badge>
        {trialDays != null && trialDays > 0 && <Badge color="teal">Trial</Badge>}
        {subscription.billing_status === 'past_due' && <Badge color="red">Past due</Badge>}
        {subscription.billing_status === 'incomplete' && <Badge color="red">Incomplete</Badge>}
        {ends && ends > now && <Badge color="orange">Cancelled</Badge>}
      </Group>
      <Text size="sm" data-testid="plan-amount">
        {formatMoney(subscription.amount, subscription.currency, locale)} per{' '}
        {PER[subscription.interval]}
      </Text>
      {trialDays != null && trialDays > 0 && (
        <Text size="sm" data-testid="trial-days-left">
          {trialDays === 1 ? '1 day' : `${trialDays} days`} left in your trial.
        </Text>
      )}
      {ends && ends > now && (
        <Text size="sm" data-testid="grace-period">
          Your plan is cancelled. It stays active until {formatDate(subscription.ends_at!, locale)}.
        </Text>
      )}
      {!ends && subscription.period_ends_at && (
        <Text size="sm" data-testid="renewal">
          Renews on {formatDate(subscription.period_ends_at, locale)}.
        </Text>
      )}
    </Stack>
  );
}

/** "Choose …" for an account without a plan: the checkout for this scope, as on pricing. */
function ChooseButton({
  scope,
  plan,
  interval,
  currency,
}: {
  scope: SubscriptionScope;
  plan: PlanRow;
  interval: BillingInterval;
  currency: string;
}) {
  const checkout = useNewSubscriptionMutation();
  const notify = useNotify();
  const supabase = useSupabase();
  const userId = useUserId();
  const navigate = useNavigate();
  const coupon = useRememberedCoupon().code;
  const [leaving, setLeaving] = useState(false);
  const choose = () =>
    checkout.mutate(
      {
        subscription: plan.name,
        interval,
        currency,
        trial: plan.trial_available,
        ...(coupon ? { coupon } : {}),
        ...(scope.kind !== 'personal' ? { organization: scope.org } : {}),
        ...(scope.kind === 'team' ? { team: scope.team } : {}),
      },
      {
        onSuccess: (data) => {
          setLeaving(true);
          window.location.assign(data.payment_url);
        },
        onError: (error) =>
          void (async () => {
            // The plan needs the billing address first: the tax details page asks for it.
            if (await refusedForBillingAddress(error)) {
              const account = userId ? await scopeAccountId(supabase, userId, scope) : null;
              if (account)
                void navigate(href('user.vatinfo', { encrypted: vatInfoToken(account) }));
              return;
            }
            const { status, message } = await refusalMessage(error);
            if (status !== 422 && message)
              notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'error' });
          })(),
      },
    );
  return (
    <Button size="xs" loading={checkout.isPending || leaving} onClick={choose}>
      Choose {planTitle(plan.name)} ({interval})
    </Button>
  );
}

/**
 * The paid plans with their prices: "Choose" opens a checkout when there is no plan; with one,
 * each other plan and period links to the update page.
 */
function PlanChoices({
  scope,
  current,
  currency,
  locale,
}: {
  scope: SubscriptionScope;
  current: ScopeSubscription | null;
  currency: string;
  locale: string;
}) {
  const plans = usePlansQuery();
  const links = subscriptionPaths(scope);
  const paid = (plans.data ?? []).filter(
    (plan) => plan.name !== 'free' && plan.name !== 'enterprise',
  );
  if (plans.isPending) return <Loader size="sm" />;
  return (
    <Table aria-label={current ? 'Change plan' : 'Choose a plan'}>
      <Table.Tbody>
        {paid.flatMap((plan) =>
          plan.prices
            .filter((price) => price.active && price.currency === currency)
            .map((price) => {
              const interval = price.interval as BillingInterval;
              const isCurrent = current?.name === plan.name && current.interval === interval;
              return (
                <Table.Tr key={price.id}>
                  <Table.Td>
                    {planTitle(plan.name)} ({interval})
                  </Table.Td>
                  <Table.Td>
                    {formatMoney(price.amount, price.currency, locale)} per {PER[interval]}
                  </Table.Td>
                  <Table.Td>
                    {isCurrent ? (
                      <Text size="sm">Your current plan</Text>
                    ) : current ? (
                      <Button
                        size="xs"
                        variant="light"
                        component={Link}
                        to={links.update(plan.name, interval)}
                      >
                        Switch to {planTitle(plan.name)} ({interval})
                      </Button>
                    ) : (
                      <ChooseButton
                        scope={scope}
                        plan={plan}
                        interval={interval}
                        currency={currency}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            }),
        )}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A scope's subscription (app-shell 2 and 4): the plan, its renewal date, trial days left, the
 * grace period after a cancel, a pending downgrade, and the actions that fit its state: cancel,
 * resume, reactivate, switch plan or period, keep the current plan.
 */
export function SubscriptionPanel({ scope }: { scope: SubscriptionScope }) {
  const { locale, currency } = useAppState();
  const state = useSubscriptionStateQuery(scope);
  const { run, running } = useSubscriptionActions(scope);
  const links = subscriptionPaths(scope);

  if (state.isPending) return <Loader size="sm" aria-label="Loading the subscription" />;
  if (state.isError)
    return (
      <Alert color="red" role="alert" title="Your subscription could not be loaded">
        You may not manage this account&apos;s subscription.
      </Alert>
    );
  const { subscription, future } = state.data;
  const now = new Date();
  const ended =
    subscription?.ends_at != null && new Date(subscription.ends_at).getTime() <= now.getTime();
  const live = subscription && !ended ? subscription : null;
  const busy = running != null;

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md">
        {!subscription && (
          <Stack gap="sm">
            <Title order={2} size="h3" data-testid="current-plan">
              Free
            </Title>
            <Text size="sm">You are on the free plan.</Text>
            {scope.kind === 'personal' && (
              <Button component={Link} to={paths['signup.pricing']} w="fit-content">
                See plans
              </Button>
            )}
          </Stack>
        )}
        {subscription && ended && (
          <Stack gap="sm">
            <Title order={2} size="h3" data-testid="current-plan">
              Free
            </Title>
            <Text size="sm" data-testid="ended">
              Your {planTitle(subscription.name)} plan ended on{' '}
              {formatDate(subscription.ends_at!, locale)}.
            </Text>
            <Button
              w="fit-content"
              loading={running === 'reactivate'}
              disabled={busy}
              onClick={() => void run('reactivate')}
            >
              Reactivate {planTitle(subscription.name)}
            </Button>
          </Stack>
        )}
        {live && (
          <Stack gap="md">
            <PlanDetails subscription={live} locale={locale} />
            {future && (
              <Alert color="blue" title="Plan change scheduled" data-testid="pending-downgrade">
                <Text size="sm">
                  Your plan changes to {planTitle(future.name)} ({future.interval}) on{' '}
                  {formatDate(future.period_starts_at!, locale)}.
                </Text>
                <Button
                  mt="sm"
                  size="xs"
                  variant="light"
                  loading={running === 'cancel-scheduled'}
                  disabled={busy}
                  onClick={() => void run('cancel-scheduled')}
                >
                  Keep my current plan
                </Button>
              </Alert>
            )}
            <Group>
              {live.ends_at == null ? (
                <>
                  <Button
                    variant="light"
                    component={Link}
                    to={links.update(live.name, OTHER[live.interval])}
                  >
                    Switch to {OTHER[live.interval]} billing
                  </Button>
                  <Button color="red" variant="light" component={Link} to={links.cancel}>
                    Cancel subscription
                  </Button>
                </>
              ) : (
                <Button
                  loading={running === 'resume'}
                  disabled={busy}
                  onClick={() => void run('resume')}
                >
                  Resume subscription
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Paper>
      {(!live || live.ends_at == null) && (
        <Stack gap="xs">
          <Title order={2} size="h4">
            {live ? 'Change plan' : 'Choose a plan'}
          </Title>
          <PlanChoices
            scope={scope}
            current={live}
            currency={live?.currency ?? currency}
            locale={locale}
          />
        </Stack>
      )}
    </Stack>
  );
}
