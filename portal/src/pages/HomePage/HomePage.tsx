import {
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { hasFeature } from '@shortlane/shared/features.ts';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { LazyCreateLinkForm } from '../../features/links/create/LazyCreateLinkForm.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useAppState, type Viewer } from '../../state/appState.ts';
import classes from './HomePage.module.css';
import { useFlashErrors } from './useFlashErrors.ts';

const HIGHLIGHTS = [
  {
    title: 'Custom links',
    text: 'Choose the words after the slash so people know where a link leads.',
    to: paths['features.customLinks'],
  },
  {
    title: 'Branded domains',
    text: 'Put short links on your own domain and build trust with every click.',
    to: paths['features.brandedDomains'],
  },
  {
    title: 'Link analytics',
    text: 'See who clicks, from where and on what, as it happens.',
    to: paths['features.linkAnalytics'],
  },
];

function GuestHome() {
  const { productName } = useConfig();
  return (
    <>
      <div className={classes.hero}>
        <Container size="md">
          <Title order={1}>Shorten, brand and track your links</Title>
          <Text mt="sm" size="lg">
            {productName} turns long web addresses into short links you can share anywhere.
          </Text>
          <div style={{ marginTop: 'var(--mantine-spacing-lg)' }}>
            <LazyCreateLinkForm mode="home" />
          </div>
          <Group mt="lg">
            <Button component={Link} to={paths.register}>
              Sign up for free
            </Button>
            <Button component={Link} to={paths['signup.pricing']} variant="default">
              See the plans
            </Button>
          </Group>
        </Container>
      </div>
      <Container size="md" py="xl">
        <Title order={2} size="h3">
          More than a short link
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} mt="md">
          {HIGHLIGHTS.map((highlight) => (
            <Paper key={highlight.title} withBorder p="md" radius="md">
              <Title order={3} size="h5">
                {highlight.title}
              </Title>
              <Text size="sm" mt="xs">
                {highlight.text}
              </Text>
              <Anchor component={Link} to={highlight.to} size="sm" mt="xs" display="inline-block">
                Learn more about {highlight.title.toLowerCase()}
              </Anchor>
            </Paper>
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}

/** Signed in without analytics: the create form and what a plan would add. */
function NonSubscribedHome({ viewer }: { viewer: Viewer }) {
  return (
    <Container size="md" py="xl">
      <Title order={1}>Welcome, {viewer.name}</Title>
      <Text mt="xs">
        Signed in as <strong>{viewer.email}</strong>
      </Text>
      <Stack mt="lg" gap="lg">
        <LazyCreateLinkForm mode="home" />
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4">
            See every click
          </Title>
          <Text mt="xs" size="sm">
            Paid plans add analytics for every link, branded domains, custom aliases and the API.
          </Text>
          <Button component={Link} to={paths['signup.pricing']} mt="md" variant="light">
            Compare plans
          </Button>
        </Paper>
      </Stack>
    </Container>
  );
}

/**
 * /app: the create form for guests; the dashboard for subscribers and users whose plan has
 * analytics (app-shell 2, link-creation 2); otherwise the non-subscribed page.
 */
export default function HomePage() {
  const { status } = useAuth();
  const { viewer } = useAppState();
  const location = useLocation();
  usePageTitle('');
  useFlashErrors();
  if (status === 'guest') return <GuestHome />;
  if (!viewer) return <PageLoader />;
  if (viewer.subscribed || hasFeature({ features: viewer.features }, 'use_analytics')) {
    // The query (alias, active: the link just created) goes along to the dashboard.
    return <Navigate to={{ pathname: paths.dashboard, search: location.search }} replace />;
  }
  return <NonSubscribedHome viewer={viewer} />;
}
