import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { SettingsSection } from '../../../components/SettingsSection.tsx';
import {
  useArchiveTeamMutation,
  useCreateOrganizationTeamMutation,
  useOrganizationTeamsQuery,
  type OrganizationTeam,
} from '../../../data/teams/organization-teams-query.ts';
import { useUpdateTeamMutation } from '../../../data/teams/team-profile-mutations.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { useDialogs } from '../../../lib/servicesContext.ts';
import { useSuccessNotice } from '../../settings/useSuccessNotice.ts';
import { failureMessage } from '../../teams/TeamMemberRow.tsx';
import { TeamNameForm } from '../../teams/TeamNameForm.tsx';
import {
  OrganizationTeamsFrame,
  type TeamSettingsOrganization,
} from './OrganizationTeamsFrame.tsx';
import { canManageTeams } from './teamSettings.ts';

const count = (value: number, one: string, many: string) =>
  `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;

function CreateTeam({ organization }: { organization: TeamSettingsOrganization }) {
  const create = useCreateOrganizationTeamMutation(organization.id);
  const success = useSuccessNotice();
  return (
    <TeamNameForm
      pending={create.isPending}
      save={async (team) => {
        await create.mutateAsync(team);
        success(`The team ${team.name} was created.`);
      }}
    />
  );
}

function RenameTeam({ team, onClose }: { team: OrganizationTeam; onClose: () => void }) {
  const update = useUpdateTeamMutation(team.id);
  const success = useSuccessNotice();
  return (
    <Modal opened onClose={onClose} title={`Rename ${team.name}`} centered>
      <TeamNameForm
        label={`Rename ${team.name}`}
        submitLabel="Save team"
        initial={{ name: team.name, slug: team.slug }}
        pending={update.isPending}
        save={async (values) => {
          await update.mutateAsync(values);
          success(`The team ${values.name} was saved.`);
          onClose();
        }}
      />
    </Modal>
  );
}

function TeamRow({
  team,
  manage,
  onRename,
  onError,
}: {
  team: OrganizationTeam;
  manage: boolean;
  onRename: (team: OrganizationTeam) => void;
  onError: (message: string | null) => void;
}) {
  const archive = useArchiveTeamMutation();
  const dialogs = useDialogs();
  const success = useSuccessNotice();
  const toggleArchive = async () => {
    const archiving = !team.archived;
    const ok = await dialogs.confirm({
      title: archiving ? 'Archive team' : 'Unarchive team',
      messageHtml: archiving
        ? `<strong>${escapeHtml(team.name)}</strong> will be archived: nobody can switch to it until it is unarchived. Its links and members stay.`
        : `<strong>${escapeHtml(team.name)}</strong> will be active again.`,
      confirmLabel: archiving ? 'Archive' : 'Unarchive',
    });
    if (!ok) return;
    onError(null);
    try {
      await archive.mutateAsync({ teamId: team.id, archive: archiving });
      success(
        archiving
          ? `The team ${team.name} was archived.`
          : `The team ${team.name} is active again.`,
      );
    } catch (error) {
      onError(failureMessage(error));
    }
  };
  return (
    <Table.Tr>
      <Table.Th scope="row">
        <Text fw={600}>{team.name}</Text>
        <Text size="sm" c="gray.7">
          {team.slug}
        </Text>
      </Table.Th>
      <Table.Td>{count(team.members, 'member', 'members')}</Table.Td>
      <Table.Td>{count(team.links, 'link', 'links')}</Table.Td>
      <Table.Td>
        {team.archived ? (
          <Badge color="gray" variant="light">
            Archived
          </Badge>
        ) : (
          <Badge variant="light">Active</Badge>
        )}
      </Table.Td>
      <Table.Td>
        {manage && (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              onClick={() => onRename(team)}
              aria-label={`Rename ${team.name}`}
            >
              Rename
            </Button>
            <Button
              size="xs"
              variant="light"
              color={team.archived ? 'blue' : 'red'}
              loading={archive.isPending}
              onClick={() => void toggleArchive()}
              aria-label={`${team.archived ? 'Unarchive' : 'Archive'} ${team.name}`}
            >
              {team.archived ? 'Unarchive' : 'Archive'}
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function Teams({ organization }: { organization: TeamSettingsOrganization }) {
  const teams = useOrganizationTeamsQuery(organization.id);
  const manage = canManageTeams(organization.permissions);
  const [renaming, setRenaming] = useState<OrganizationTeam | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <SettingsSection title="Teams">
        {teams.isPending ? (
          <Loader size="sm" aria-label="Loading the teams" />
        ) : teams.isError ? (
          <Alert color="red" title="The teams could not be loaded" role="alert">
            {failureMessage(teams.error)}
            <Button variant="light" size="xs" mt="xs" onClick={() => void teams.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : teams.data.length === 0 ? (
          <Text c="gray.7">No teams yet.</Text>
        ) : (
          <>
            {error && (
              <Alert
                color="red"
                role="alert"
                title={error}
                mb="sm"
                withCloseButton
                onClose={() => setError(null)}
              />
            )}
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" aria-label="Organization teams">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Team</Table.Th>
                    <Table.Th scope="col">Members</Table.Th>
                    <Table.Th scope="col">Links</Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {teams.data.map((team) => (
                    <TeamRow
                      key={team.id}
                      team={team}
                      manage={manage}
                      onRename={setRenaming}
                      onError={setError}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </SettingsSection>
      {manage ? (
        <SettingsSection title="Create a team">
          <CreateTeam organization={organization} />
        </SettingsSection>
      ) : (
        <Text size="sm" c="gray.7">
          Only the owner and holders of the Teams permission create, rename and archive teams.
        </Text>
      )}
      {renaming && <RenameTeam team={renaming} onClose={() => setRenaming(null)} />}
    </>
  );
}

/** organizations/{org}/settings/teams: the organization's teams, created, renamed, archived. */
export default function OrganizationTeamsPage() {
  return (
    <OrganizationTeamsFrame
      route="org.settings.teams"
      title="Teams"
      summary="The organization's teams with their members and links. Archived teams keep their links; nobody works in them until they are unarchived."
    >
      {(organization) => <Teams organization={organization} />}
    </OrganizationTeamsFrame>
  );
}
