import { Container, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { SubscriptionScope } from '../../data/subscription/scope.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { TeamSettingsFrame } from '../teams/TeamSettingsFrame.tsx';
import { CancelPanel, UpdatePanel, UpdateVerificationPanel } from './SubscriptionChangePanels.tsx';
import { SubscriptionPanel } from './SubscriptionPanel.tsx';
import { useRouteScope } from './routeScope.ts';

export { formatDate } from './SubscriptionPanel.tsx';

/** The page's frame in its scope: the settings page, the team's settings, the organization's. */
function Frame({
  scope,
  title,
  children,
}: {
  scope: SubscriptionScope;
  title: string;
  children: ReactNode;
}) {
  const { productName } = useConfig();
  usePageTitle(title, productName);
  if (scope.kind === 'team')
    return <TeamSettingsFrame title={title}>{() => children}</TeamSettingsFrame>;
  const body = (
    <Stack gap="lg">
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
  if (scope.kind === 'organization')
    return (
      <Container size="md" py="xl">
        {body}
      </Container>
    );
  return body;
}

const TITLES = {
  subscription: 'Subscription',
  cancel: 'Cancel subscription',
  update: 'Change plan',
  verification: 'Confirming your plan change',
} as const;

/**
 * The subscription screens of the three scopes (app-shell 2): settings.subscription,
 * .cancel, .update and .update.verification, and their team.* and org.settings.* twins, one
 * component each taking the scope.
 */
export default function SubscriptionPage() {
  const route = useCurrentRouteName();
  const scope = useRouteScope();
  const { subscription = '', interval = '' } = useParams();
  const [query] = useSearchParams();
  if (route.endsWith('.update.verification'))
    return (
      <Frame scope={scope} title={TITLES.verification}>
        <UpdateVerificationPanel
          scope={scope}
          plan={query.get('subscription') ?? ''}
          interval={query.get('interval') ?? ''}
        />
      </Frame>
    );
  if (route.endsWith('.update'))
    return (
      <Frame scope={scope} title={TITLES.update}>
        <UpdatePanel scope={scope} plan={subscription} interval={interval} />
      </Frame>
    );
  if (route.endsWith('.cancel'))
    return (
      <Frame scope={scope} title={TITLES.cancel}>
        <CancelPanel scope={scope} />
      </Frame>
    );
  return (
    <Frame scope={scope} title={TITLES.subscription}>
      <SubscriptionPanel scope={scope} />
    </Frame>
  );
}
