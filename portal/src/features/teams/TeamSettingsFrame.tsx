import {
  Alert,
  Avatar,
  Box,
  Button,
  Container,
  Grid,
  Group,
  NavLink,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useTeamQuery, type TeamDetail } from '../../data/teams/team-query.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { href, type RouteName } from '../../routes/paths.ts';

/** The team pages of this increment, in the sidebar's order. */
const TEAM_PAGES: readonly { route: RouteName; label: string }[] = [
  { route: 'team.profile', label: 'Profile' },
  { route: 'team.membership', label: 'Membership' },
  { route: 'team.usage', label: 'Usage' },
  { route: 'team.subscription', label: 'Subscription' },
  { route: 'team.paymentMethod', label: 'Payment Method' },
  { route: 'team.invoices', label: 'Invoices' },
];

function TeamSidebar({ org, team }: { org: string; team: string }) {
  const { pathname } = useLocation();
  return (
    <Box component="nav" aria-label="Team settings">
      {TEAM_PAGES.map((entry) => {
        const to = href(entry.route as 'team.profile', { org, team });
        const current = pathname === to;
        return (
          <NavLink
            key={entry.route}
            component={Link}
            to={to}
            label={entry.label}
            active={current}
            aria-current={current ? 'page' : undefined}
          />
        );
      })}
    </Box>
  );
}

/**
 * Every organization/{org}/team/{team} page: the team's name and photo, the team sidebar, and
 * the page once the team is known (with its loading and error states).
 */
export function TeamSettingsFrame({
  title,
  children,
}: {
  title: string;
  children: (team: TeamDetail) => ReactNode;
}) {
  const { org = '', team: teamSlug = '' } = useParams();
  const { productName } = useConfig();
  const query = useTeamQuery(org, teamSlug);
  const team = query.data ?? null;
  usePageTitle(team ? `${title} · ${team.name}` : title, productName);

  let body: ReactNode;
  if (query.isPending) body = <PageLoader />;
  else if (query.isError) {
    body = (
      <Alert color="red" title="The team could not be loaded">
        <Button variant="light" size="xs" mt="xs" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  } else if (!team) {
    body = <Alert title="Unknown team.">This team does not exist or is not yours to see.</Alert>;
  } else body = children(team);

  return (
    <Container size="xl" py="md">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="sm">
            {team && (
              <Group gap="sm" wrap="nowrap" px="sm">
                <Avatar src={team.photoUrl} alt="" name={team.name} radius="xl" />
                <Text fw={700} truncate>
                  {team.name}
                </Text>
              </Group>
            )}
            <TeamSidebar org={org} team={teamSlug} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="lg">
            <Title order={1}>{title}</Title>
            {body}
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
