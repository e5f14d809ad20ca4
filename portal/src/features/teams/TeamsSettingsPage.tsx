import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useCreateTeamMutation } from '../../data/teams/team-profile-mutations.ts';
import { STANDALONE_TEAM_ORG } from '../../data/teams-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { TeamNameForm } from './TeamNameForm.tsx';
import { teamSettingsPath } from './teamMode.ts';
import { useTeamSwitch } from './useTeamSwitch.ts';

function CreateStandaloneTeam() {
  const create = useCreateTeamMutation();
  const success = useSuccessNotice();
  const navigate = useNavigate();
  return (
    <TeamNameForm
      pending={create.isPending}
      save={async (team) => {
        await create.mutateAsync(team);
        success(`The team ${team.name} was created.`);
        void navigate(href('team.profile', { org: STANDALONE_TEAM_ORG, team: team.slug }));
      }}
    />
  );
}

/** settings/teams: the user's teams, switching between them, and a new team. */
export default function TeamsSettingsPage() {
  const { productName } = useConfig();
  usePageTitle('Teams', productName);
  const viewer = useViewer();
  const { switchTo, pending } = useTeamSwitch();
  if (!viewer) return null;
  const current = viewer.currentTeam;

  return (
    <Stack gap="lg">
      <Title order={1}>Teams</Title>
      <SettingsSection title="Your teams">
        {viewer.teams.length === 0 ? (
          <Text c="gray.7">
            You are not on any team yet. Create one below, or accept an invitation.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="sm" aria-label="Your teams">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Team</Table.Th>
                  <Table.Th>Your role</Table.Th>
                  <Table.Th>Team mode</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {viewer.teams.map((team) => (
                  <Table.Tr key={team.id}>
                    <Table.Td>
                      <Link to={teamSettingsPath(team)}>{team.name}</Link>
                    </Table.Td>
                    <Table.Td>{team.role}</Table.Td>
                    <Table.Td>
                      {current?.id === team.id ? (
                        <Group gap="xs">
                          <Badge>Working here</Badge>
                          <Button
                            size="xs"
                            variant="default"
                            disabled={pending}
                            onClick={() => void switchTo(null)}
                          >
                            Back to your account
                          </Button>
                        </Group>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          disabled={pending}
                          onClick={() => void switchTo(team)}
                          aria-label={`Switch to ${team.name}`}
                        >
                          Switch
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </SettingsSection>
      <SettingsSection title="Create a team">
        <CreateStandaloneTeam />
      </SettingsSection>
    </Stack>
  );
}
