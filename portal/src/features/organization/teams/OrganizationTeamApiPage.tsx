import { NativeSelect, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import ApiTokensPage from '../../api-tokens/ApiTokensPage.tsx';
import { ActiveTeams } from './ActiveTeams.tsx';
import {
  OrganizationTeamsFrame,
  type TeamSettingsOrganization,
} from './OrganizationTeamsFrame.tsx';

/**
 * The team picker; the chosen team (?team={slug}) gets the API token screens at team scope
 * (features/api-tokens reads the same query parameter), whose new and edit pages are the team's.
 */
function TeamTokens({ organization }: { organization: TeamSettingsOrganization }) {
  const [search, setSearch] = useSearchParams();
  const chosen = search.get('team') ?? '';
  return (
    <ActiveTeams organizationId={organization.id}>
      {(teams) => {
        const known = teams.some((team) => team.slug === chosen);
        return (
          <Stack gap="lg">
            <NativeSelect
              label="Team"
              maw={360}
              value={known ? chosen : ''}
              onChange={(event) => {
                const team = event.currentTarget.value;
                setSearch(team ? { team } : {}, { replace: true });
              }}
              data={[
                { value: '', label: 'Choose a team…' },
                ...teams.map((team) => ({ value: team.slug, label: team.name })),
              ]}
            />
            {known ? (
              <ApiTokensPage />
            ) : (
              <Text c="gray.7">Choose a team to see and manage its API tokens.</Text>
            )}
          </Stack>
        );
      }}
    </ActiveTeams>
  );
}

/** organizations/{org}/settings/teams/api: the API tokens of the organization's teams. */
export default function OrganizationTeamApiPage() {
  return (
    <OrganizationTeamsFrame
      route="org.settings.teams.api"
      title="Team API tokens"
      summary="Tokens let programs use the REST API as one of the organization's teams."
    >
      {(organization) => <TeamTokens organization={organization} />}
    </OrganizationTeamsFrame>
  );
}
