import { Anchor, Container, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { homeRouteFor } from '../../routes/access.ts';
import { useCurrentRouteName } from '../../routes/currentRoute.ts';
import { paths, type RouteName } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';

const WAY_BACK: Partial<Record<RouteName, string>> = {
  homepage: 'Back to the homepage',
  'subscription.past_due': 'Back to your past-due payment',
};

/**
 * The way out of a placeholder: home as the guards resolve it for this viewer (a past-due user's
 * home is the past-due page), and the plans where that would lead back to this very page.
 */
export function useWayBack(current: RouteName): { to: string; label: string } {
  const home = homeRouteFor(useViewer());
  if (home === current) return { to: paths['signup.pricing'], label: 'See the plans' };
  return { to: paths[home], label: WAY_BACK[home] ?? 'Back to the homepage' };
}

/** A route whose screen is not built yet: what it is, what will be there, and the way home. */
export default function PlaceholderPage({ title, summary }: { title: string; summary: string }) {
  const { productName } = useConfig();
  usePageTitle(title, productName);
  const wayBack = useWayBack(useCurrentRouteName());
  return (
    <Container size="md" py="xl">
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg" mt="lg" radius="md">
        <Text>{summary}</Text>
        <Text mt="sm" c="gray.7" size="sm">
          This page is not built yet; it arrives in a coming release.
        </Text>
      </Paper>
      <Anchor component={Link} to={wayBack.to} mt="lg" display="inline-block">
        {wayBack.label}
      </Anchor>
    </Container>
  );
}
