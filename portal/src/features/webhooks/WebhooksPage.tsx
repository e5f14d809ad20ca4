import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useProfileQuery } from '../../data/profile-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { hasWebhooksFeature } from './webhookErrors.ts';
import { WebhooksPanel } from './WebhooksPanel.tsx';

/** settings/webhooks: the signed-in person's webhooks, or the Enterprise upsell. */
export default function WebhooksPage() {
  const { productName } = useConfig();
  usePageTitle('Webhooks', productName);
  const viewer = useViewer();
  const profile = useProfileQuery();
  const accountId = profile.data?.personal_account_id ?? null;

  return (
    <Stack gap="lg">
      <Title order={1}>Webhooks</Title>
      <Text>
        Send events about your links to your own servers as they happen, signed the Standard
        Webhooks way so that you can check they come from us.
      </Text>
      {!viewer || !hasWebhooksFeature(viewer.features) ? (
        <Alert color="blue" title="Webhooks are part of the Enterprise plan">
          <Text size="sm">
            Upgrade to receive link, click, bulk and domain events on your own endpoints.{' '}
            <Anchor component={Link} to={href('signup.pricing')}>
              See plans
            </Anchor>
          </Text>
        </Alert>
      ) : profile.isPending ? (
        <PageLoader />
      ) : accountId === null ? (
        <Alert color="red" title="Your account could not be loaded">
          Please reload the page.
        </Alert>
      ) : (
        <WebhooksPanel accountId={accountId} />
      )}
    </Stack>
  );
}
