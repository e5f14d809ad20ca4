import { Alert, Button, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CHECKOUT_POLL_MS, useCheckoutStatusQuery } from '../../data/billing.ts';
import { refreshAppState } from '../../data/refresh.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { subscriptionPaths } from '../../data/subscription/scope.ts';
import { planTitle } from '../../pages/PricingPage/planText.ts';
import { useRouteScope } from './routeScope.ts';

/** How long the page waits for the payment provider's confirmation before saying so. */
export const CONFIRMATION_TIMEOUT_MS = 60_000;

/**
 * settings/subscription/success: back from the provider's checkout with its session id. The
 * plan is recorded when the provider's webhook arrives; until then the page asks once a second
 * and shows how long it has waited, then shows the plan and refreshes the app state.
 */
export default function SubscriptionSuccessPage() {
  usePageTitle('Subscription confirmed');
  const [params] = useSearchParams();
  // The same page for team.subscription.success and org.settings.subscription.success.
  const subscriptionPath = subscriptionPaths(useRouteScope()).subscription;
  const sessionId = params.get('session_id');
  const status = useCheckoutStatusQuery(sessionId);
  const queryClient = useQueryClient();
  const userId = useUserId();
  const [elapsed, setElapsed] = useState(0);
  const subscription = status.data?.subscription ?? null;

  useEffect(() => {
    if (subscription) return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Date.now() - started), CHECKOUT_POLL_MS);
    return () => clearInterval(timer);
  }, [subscription]);

  useEffect(() => {
    if (subscription && userId) void refreshAppState(queryClient, userId);
  }, [subscription, userId, queryClient]);

  if (!sessionId || status.isError) {
    return (
      <Alert color="red" role="alert" title="We could not find this checkout">
        <Button component={Link} to={subscriptionPath} mt="sm" size="xs">
          Go to your subscription
        </Button>
      </Alert>
    );
  }

  if (subscription) {
    return (
      <Stack gap="lg">
        <Title order={1}>Thank you!</Title>
        <Paper withBorder p="lg" radius="md">
          <Text data-testid="subscribed-plan">
            You are now on {planTitle(subscription.name)} ({subscription.interval}).
          </Text>
          <Button component={Link} to={subscriptionPath} mt="md">
            See your subscription
          </Button>
        </Paper>
      </Stack>
    );
  }

  const timedOut = elapsed >= CONFIRMATION_TIMEOUT_MS;
  return (
    <Stack gap="lg">
      <Title order={1}>Confirming your payment</Title>
      <Paper withBorder p="lg" radius="md" aria-busy={!timedOut}>
        {timedOut ? (
          <Alert color="yellow" title="This takes longer than expected">
            Your payment is being confirmed. Your plan will show in your subscription settings as
            soon as it is.
          </Alert>
        ) : (
          <Stack gap="sm">
            <Loader size="sm" />
            <Text role="status">
              Waiting for the payment provider to confirm your subscription…
            </Text>
            <Progress
              value={Math.min(100, (elapsed / CONFIRMATION_TIMEOUT_MS) * 100)}
              aria-label="Confirmation progress"
            />
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
