import {
  Alert,
  Anchor,
  Button,
  Container,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router-dom';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useCurrentPriceQuery } from '../../data/subscription/current-price-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import {
  featureLabel,
  limitLines,
  PER_INTERVAL,
  planTitle,
  priceText,
} from '../../pages/PricingPage/planText.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';

/**
 * /app/pricing/old: the plan a person keeps after we stopped selling it. Its price and limits
 * stay theirs while the subscription runs; the current plans are one link away, and moving to
 * one is for good.
 */
export default function PreviousPlansPage() {
  const { productName } = useConfig();
  usePageTitle('Previous plans', productName);
  const { locale } = useAppState();
  const profile = useProfileQuery();
  const current = useCurrentPriceQuery(profile.data?.personal_account_id);

  const body = () => {
    if (profile.isPending || current.isPending)
      return (
        <Text role="status">
          <Loader size="xs" mr="xs" aria-hidden />
          Loading your plan…
        </Text>
      );
    if (profile.isError || current.isError)
      return (
        <Alert color="red" role="alert" title="Your plan could not be loaded">
          <Button mt="sm" variant="default" onClick={() => void current.refetch()}>
            Try again
          </Button>
        </Alert>
      );
    const data = current.data;
    if (data == null)
      return (
        <Text>
          You are not on a paid plan, so no previous plan applies to you.{' '}
          <Anchor component={Link} to={paths['signup.pricing']}>
            See the current plans
          </Anchor>
          .
        </Text>
      );
    const retired = !data.plan.active || data.plan.hidden || !data.price.active;
    const name = planTitle(data.plan.name);
    const price = `${priceText(data.price, locale)} ${data.price.interval === 'yearly' ? PER_INTERVAL.yearly : PER_INTERVAL.monthly}`;
    return (
      <Stack gap="sm">
        <Title order={2} size="h3">
          {name}, {price}
        </Title>
        {retired ? (
          <Text>
            We no longer offer this plan. You keep it, with this price and these limits, as long as
            your subscription runs. If you move to one of the current plans, you cannot come back to
            it.
          </Text>
        ) : (
          <Text>Your plan is one of our current plans; nothing here applies to you.</Text>
        )}
        <List aria-label={`What ${name} includes`}>
          {limitLines(data.price).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
          {(data.price.features ?? []).map((feature) => (
            <List.Item key={feature}>{featureLabel(feature)}</List.Item>
          ))}
        </List>
        <Anchor component={Link} to={paths['signup.pricing']}>
          See the current plans
        </Anchor>
      </Stack>
    );
  };

  return (
    <Container size="sm" py="xl">
      <Title order={1}>Previous plans</Title>
      <Paper withBorder p="lg" mt="lg" radius="md">
        {body()}
      </Paper>
    </Container>
  );
}
