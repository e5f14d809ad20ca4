import { Alert, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  useOrganizationTeamsQuery,
  type OrganizationTeam,
} from '../../../data/teams/organization-teams-query.ts';
import { failureMessage } from '../../teams/TeamMemberRow.tsx';

/** The organization's teams nobody archived, once loaded (members and API token pages). */
export function ActiveTeams({
  organizationId,
  children,
}: {
  organizationId: string;
  children: (teams: OrganizationTeam[]) => ReactNode;
}) {
  const teams = useOrganizationTeamsQuery(organizationId);
  if (teams.isPending) return <Loader size="sm" aria-label="Loading the teams" />;
  if (teams.isError) {
    return (
      <Alert color="red" title="The teams could not be loaded" role="alert">
        {failureMessage(teams.error)}
      </Alert>
    );
  }
  const active = teams.data.filter((team) => !team.archived);
  if (active.length === 0) return <Text c="gray.7">The organization has no active team.</Text>;
  return children(active);
}
