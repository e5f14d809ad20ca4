import {
  Alert,
  Badge,
  Button,
  Card,
  Container,
  Group,
  List,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  BILLING_INTERVALS,
  DEFAULT_BILLING_INTERVAL,
  type BillingInterval,
} from '@shortlane/shared/constants.ts';
import { formatMoney } from '@shortlane/shared/plans.ts';
import { BLACK_FRIDAY_2024_COUPON, saleCouponFor } from '@shortlane/shared/sale-calendar.ts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { NOTICE_DURATION_MS, STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { CREATE_FAILED_MESSAGE, useNewSubscriptionMutation } from '../../data/billing.ts';
import { refusedForBillingAddress, scopeAccountId } from '../../data/billing-address.ts';
import { PERSONAL } from '../../data/subscription/scope.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useConfig, useNotify, useSupabase } from '../../lib/servicesContext.ts';
import { vatInfoToken } from '../../features/billing-documents/vatInfoToken.ts';
import type { Coupon } from '../../data/coupon-query.ts';
import { usePlansQuery, type PlanRow } from '../../data/plans-query.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href, paths } from '../../routes/paths.ts';
import { useAppState, type Viewer } from '../../state/appState.ts';
import { useRememberedCoupon } from '../../state/coupon.ts';
import { useStoredFlag } from '../../state/storedFlag.ts';
import { featureLabel, limitLines, PER_INTERVAL, planTitle, priceText } from './planText.ts';

const INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: 'Monthly', yearly: 'Yearly' };

function isInterval(value: string): value is BillingInterval {
  return (BILLING_INTERVALS as readonly string[]).includes(value);
}

/** What to tell the user when no checkout could be opened; null when a 422 already did. */
async function checkoutFailureMessage(error: unknown): Promise<string | null> {
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) return CREATE_FAILED_MESSAGE;
  if (response.status === 422) return null;
  try {
    const body = (await response.clone().json()) as { message?: unknown };
    return typeof body.message === 'string' && body.message ? body.message : CREATE_FAILED_MESSAGE;
  } catch {
    return CREATE_FAILED_MESSAGE;
  }
}

/** "Choose <plan>": the billing function opens a checkout, and the browser goes to it. */
function ChoosePlanButton({
  plan,
  interval,
  currency,
}: {
  plan: PlanRow;
  interval: BillingInterval;
  currency: string;
}) {
  const checkout = useNewSubscriptionMutation();
  const notify = useNotify();
  const supabase = useSupabase();
  const userId = useUserId();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const [, setSurveySkipped] = useStoredFlag(STORAGE_KEYS.surveySkipped, false);
  // The remembered coupon goes with the checkout; the server applies it where it is valid.
  const coupon = useRememberedCoupon().code;
  const choose = () =>
    checkout.mutate(
      {
        subscription: plan.name,
        interval,
        currency,
        trial: plan.trial_available,
        ...(coupon ? { coupon } : {}),
      },
      {
        onSuccess: (data) => {
          setLeaving(true);
          window.location.assign(data.payment_url);
        },
        onError: (error) => {
          // A 422 was announced field by field by the global handler; one for the billing
          // address leads to the tax details page. Any other failure shows the server's message
          // (the spec's create-failed one), and the onboarding survey stays away (app-shell 4).
          void refusedForBillingAddress(error).then(async (needsAddress) => {
            if (!needsAddress || !userId) return;
            const account = await scopeAccountId(supabase, userId, PERSONAL);
            if (account) void navigate(href('user.vatinfo', { encrypted: vatInfoToken(account) }));
          });
          setSurveySkipped(true);
          void checkoutFailureMessage(error).then((message) => {
            if (message) notify({ message, durationMs: NOTICE_DURATION_MS.default });
          });
        },
      },
    );
  return (
    <Button fullWidth loading={checkout.isPending || leaving} onClick={choose}>
      Choose {planTitle(plan.name)}
    </Button>
  );
}

function PlanAction({
  plan,
  viewer,
  interval,
}: {
  plan: PlanRow;
  viewer: Viewer | null;
  interval: BillingInterval;
}) {
  const current = viewer?.subscriber.subscriptions.current?.name ?? (viewer ? 'free' : null);
  if (current === plan.name) {
    return (
      <Button variant="default" disabled fullWidth>
        Your current plan
      </Button>
    );
  }
  if (plan.name === 'enterprise') {
    return (
      <Button component={Link} to={paths['pricing.quote']} variant="default" fullWidth>
        Contact sales
      </Button>
    );
  }
  if (!viewer) {
    return (
      <Button component={Link} to={href('register', null, { plan: plan.name })} fullWidth>
        {plan.name === 'free' ? 'Sign up for free' : `Start with ${planTitle(plan.name)}`}
      </Button>
    );
  }
  if (plan.name === 'free') return null;
  if (!viewer.subscribed)
    return <ChoosePlanButton plan={plan} interval={interval} currency={viewer.currency} />;
  // A subscriber moves plans on the update page (prorated now, or scheduled as a downgrade).
  return (
    <Button
      component={Link}
      to={href('settings.subscription.update', { subscription: plan.name, interval })}
      fullWidth
    >
      Choose {planTitle(plan.name)}
    </Button>
  );
}

function PlanCard({
  plan,
  interval,
  locale,
  viewer,
}: {
  plan: PlanRow;
  interval: BillingInterval;
  locale: string;
  viewer: Viewer | null;
}) {
  const price = plan.prices.find((candidate) => candidate.interval === interval);
  if (!price) return null;
  const titleId = `plan-${plan.id}`;
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start">
        <Title order={2} size="h3" id={titleId}>
          {planTitle(plan.name)}
        </Title>
        {plan.popular && <Badge color="indigo.7">Most popular</Badge>}
      </Group>
      <Text mt="sm" fz={28} fw={700} data-testid="plan-price">
        {priceText(price, locale)}
      </Text>
      <Text size="sm" c="gray.7">
        {PER_INTERVAL[interval]}
        {plan.trial_available && plan.trial_days > 0 && ` · ${plan.trial_days}-day free trial`}
      </Text>
      <List size="sm" mt="md" spacing={4}>
        {limitLines(price).map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
        {price.features.map((feature) => (
          <List.Item key={feature}>{featureLabel(feature)}</List.Item>
        ))}
      </List>
      <Stack mt="lg">
        <PlanAction plan={plan} viewer={viewer} interval={interval} />
      </Stack>
    </Card>
  );
}

function couponText(coupon: Coupon, locale: string): string {
  const discount =
    coupon.percentOff != null
      ? `${coupon.percentOff}% off`
      : `${formatMoney(coupon.amountOff ?? 0, coupon.currency, locale)} off`;
  const on = coupon.intervals.length === 1 ? ` ${coupon.intervals[0]} plans` : ' every plan';
  return `Coupon ${coupon.code}: ${discount}${on}, applied at checkout.`;
}

/** Plans and prices from the database, monthly or yearly (yearly by default). */
export default function PricingPage() {
  usePageTitle('Pricing');
  const plans = usePlansQuery();
  const { viewer, locale } = useAppState();
  const coupon = useRememberedCoupon().query.data;
  const [interval, setInterval] = useState<BillingInterval>(DEFAULT_BILLING_INTERVAL);
  const calendar = useConfig().saleCalendar;
  // Once remembered, the sale coupon shows as the applied coupon above instead.
  const saleCoupon =
    coupon?.code === BLACK_FRIDAY_2024_COUPON
      ? null
      : saleCouponFor(interval, new Date(), calendar);

  return (
    <Container size="lg" py="xl">
      <Title order={1} ta="center">
        Plans and pricing
      </Title>
      <Text ta="center" mt="xs">
        Start free; upgrade when you need analytics, your own domains and more links.
      </Text>
      <Group justify="center" mt="lg">
        <SegmentedControl
          aria-label="Billing period"
          value={interval}
          onChange={(value) => isInterval(value) && setInterval(value)}
          data={BILLING_INTERVALS.map((value) => ({ value, label: INTERVAL_LABELS[value] }))}
        />
      </Group>
      {coupon && (
        <Alert color="teal" mt="lg" title="Coupon applied">
          {couponText(coupon, locale)}
        </Alert>
      )}
      {saleCoupon && (
        <Alert color="indigo" mt="lg" title="Black Friday sale">
          Use the code {saleCoupon} on yearly plans.
        </Alert>
      )}
      {plans.isPending && <PageLoader />}
      {plans.isError && (
        <Alert color="red" mt="lg" role="alert" title="The plans could not be loaded">
          <Button mt="sm" size="xs" onClick={() => void plans.refetch()}>
            Try again
          </Button>
        </Alert>
      )}
      {plans.data && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mt="xl" spacing="lg">
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              interval={interval}
              locale={locale}
              viewer={viewer}
            />
          ))}
        </SimpleGrid>
      )}
    </Container>
  );
}
