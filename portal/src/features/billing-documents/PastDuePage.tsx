import { Alert, Anchor, Button, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { usePastDuePaymentMutation } from '../../data/billing-documents/billing-documents-calls.ts';
import { useInvoicesQuery } from '../../data/billing-documents/invoices-query.ts';
import { useProfileQuery } from '../../data/profile-query.ts';
import { PERSONAL } from '../../data/subscription/scope.ts';
import { useSubscriptionStateQuery } from '../../data/subscription/subscription-state-query.ts';
import { refreshAppState } from '../../data/refresh.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';

/** How often the page looks at the invoice window and the plan while a payment is under way. */
export const PAYMENT_POLL_MS = 1_000;

/**
 * subscribe (subscription.past_due): the plan's unpaid invoice and "Pay now", which opens the
 * provider's hosted invoice page (the invoice-payment flow). Once the provider's webhook has
 * made the plan current again the dashboard opens; closing the payment window first returns
 * to the homepage, as the spec says of an invoice-payment checkout.
 */
export default function PastDuePage() {
  usePageTitle('Your payment is past due');
  const { locale } = useAppState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = useUserId();
  const profile = useProfileQuery();
  const accountId = profile.data?.personal_account_id;
  const plan = useSubscriptionStateQuery(PERSONAL);
  const invoices = useInvoicesQuery(accountId);
  const pay = usePastDuePaymentMutation();
  const [paying, setPaying] = useState(false);
  const payment = useRef<Window | null>(null);

  const due = invoices.data?.find((invoice) => invoice.status === 'open');
  const pastDue = plan.data?.subscription?.billing_status === 'past_due';

  useEffect(() => {
    if (!paying) return;
    const timer = setInterval(() => {
      void plan.refetch().then(async ({ data }) => {
        if (data?.subscription && data.subscription.billing_status !== 'past_due') {
          clearInterval(timer);
          if (userId) await refreshAppState(queryClient, userId);
          await navigate(paths.dashboard);
        } else if (payment.current?.closed) {
          clearInterval(timer);
          await navigate(paths.homepage);
        }
      });
    }, PAYMENT_POLL_MS);
    return () => clearInterval(timer);
  }, [paying, plan, userId, queryClient, navigate]);

  const start = async () => {
    if (!accountId) return;
    try {
      const page = await pay.mutateAsync(accountId);
      // Paddle's overlay opens on our own /paddle/payment page, which comes home when paid.
      if (page.billing_type === 2) {
        window.location.assign(page.payment_url);
        return;
      }
      payment.current = window.open(page.payment_url, 'invoice-payment');
      // A blocked window: the invoice page opens here instead, and its way back is the browser's.
      if (!payment.current) window.location.assign(page.payment_url);
      else setPaying(true);
    } catch {
      // The global response handler announced the refusal.
    }
  };

  return (
    <Stack gap="lg" maw={640} mx="auto" py="xl">
      <Title order={1}>Your payment is past due</Title>
      <Paper withBorder p="lg" radius="md">
        {(plan.isPending || invoices.isPending) && <Loader size="sm" />}
        {plan.isSuccess && (
          <Stack gap="md">
            <Text>
              {due
                ? `Your last payment of ${formatMoney(due.amount, due.currency ?? undefined, locale)} did not go through.`
                : 'Your last payment did not go through.'}{' '}
              Pay the open invoice to keep your plan. Until then only this page, pricing and the
              legal pages are open.
            </Text>
            {paying ? (
              <Alert color="blue" role="status" icon={<Loader size="xs" />}>
                Waiting for your payment… Finish it in the payment window.
              </Alert>
            ) : (
              <Button
                w="fit-content"
                loading={pay.isPending}
                disabled={!pastDue}
                onClick={() => void start()}
              >
                Pay now
              </Button>
            )}
          </Stack>
        )}
      </Paper>
      <Anchor component={Link} to={paths['signup.pricing']}>
        See the plans
      </Anchor>
    </Stack>
  );
}
