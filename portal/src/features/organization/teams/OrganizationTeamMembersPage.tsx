import { Alert, Button, Group, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { SettingsSection } from '../../../components/SettingsSection.tsx';
import {
  useOrganizationPeopleQuery,
  type OrganizationPerson,
  type OrganizationTeam,
} from '../../../data/teams/organization-teams-query.ts';
import { useAddTeamMemberMutation } from '../../../data/teams/team-membership-mutations.ts';
import {
  useTeamMembersQuery,
  type TeamMember,
  type TeamRole,
} from '../../../data/teams/team-members-query.ts';
import { useViewer } from '../../../state/appState.ts';
import { useSuccessNotice } from '../../settings/useSuccessNotice.ts';
import {
  failureMessage,
  ROLE_LABELS,
  ROLE_OPTIONS,
  TeamMembersTable,
} from '../../teams/TeamMemberRow.tsx';
import { ActiveTeams } from './ActiveTeams.tsx';
import {
  OrganizationTeamsFrame,
  type TeamSettingsOrganization,
} from './OrganizationTeamsFrame.tsx';
import { canManageTeamMembers } from './teamSettings.ts';

function AddMember({
  team,
  candidates,
  onError,
}: {
  team: OrganizationTeam;
  candidates: readonly OrganizationPerson[];
  onError: (message: string | null) => void;
}) {
  const add = useAddTeamMemberMutation(team.id);
  const success = useSuccessNotice();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  if (candidates.length === 0) {
    return (
      <Text size="sm" c="gray.7">
        Everyone in the organization is on this team.
      </Text>
    );
  }
  const submit = async () => {
    const person = candidates.find((candidate) => candidate.userId === userId);
    if (!person) {
      onError('Choose a person to add.');
      return;
    }
    onError(null);
    try {
      await add.mutateAsync({ userId, role });
      success(
        `${person.name || person.email} joined ${team.name} as ${ROLE_LABELS[role].toLowerCase()}.`,
      );
      setUserId('');
    } catch (error) {
      onError(failureMessage(error));
    }
  };
  return (
    <form
      aria-label={`Add a person to ${team.name}`}
      aria-busy={add.isPending}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label="Person"
          style={{ flex: '1 1 16rem' }}
          value={userId}
          onChange={(event) => setUserId(event.currentTarget.value)}
          data={[
            { value: '', label: 'Choose a person…' },
            ...candidates.map((person) => ({
              value: person.userId,
              label: person.name ? `${person.name} (${person.email})` : person.email,
            })),
          ]}
        />
        <NativeSelect
          label="Role"
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as TeamRole)}
          data={ROLE_OPTIONS}
        />
        <Button type="submit" loading={add.isPending}>
          Add to team
        </Button>
      </Group>
    </form>
  );
}

function TeamMembers({
  team,
  people,
  manage,
}: {
  team: OrganizationTeam;
  people: readonly OrganizationPerson[];
  manage: boolean;
}) {
  const viewer = useViewer();
  const members = useTeamMembersQuery(team.id);
  const [error, setError] = useState<string | null>(null);
  const onTeam = new Set((members.data ?? []).map((member: TeamMember) => member.userId));
  return (
    <SettingsSection title={team.name}>
      <Stack gap="md">
        {error && (
          <Alert
            color="red"
            role="alert"
            title={error}
            withCloseButton
            onClose={() => setError(null)}
          />
        )}
        {members.isPending ? (
          <Loader size="sm" aria-label={`Loading the members of ${team.name}`} />
        ) : members.isError ? (
          <Alert color="red" title="The members could not be loaded">
            <Button variant="light" size="xs" mt="xs" onClick={() => void members.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : members.data.length === 0 ? (
          <Text c="gray.7">Nobody is on this team yet.</Text>
        ) : (
          <TeamMembersTable
            team={team}
            members={members.data}
            manage={manage}
            me={viewer?.id ?? null}
            label={`Members of ${team.name}`}
            onError={setError}
          />
        )}
        {manage && members.isSuccess && (
          <AddMember
            team={team}
            candidates={people.filter((person) => !onTeam.has(person.userId))}
            onError={setError}
          />
        )}
      </Stack>
    </SettingsSection>
  );
}

function Members({ organization }: { organization: TeamSettingsOrganization }) {
  const manage = canManageTeamMembers(organization.permissions);
  const people = useOrganizationPeopleQuery(manage ? organization.id : null);
  return (
    <>
      {!manage && (
        <Text size="sm" c="gray.7">
          Only the owner and holders of the Members or Teams permission change team members.
        </Text>
      )}
      <ActiveTeams organizationId={organization.id}>
        {(teams) =>
          teams.map((team) => (
            <TeamMembers key={team.id} team={team} people={people.data ?? []} manage={manage} />
          ))
        }
      </ActiveTeams>
    </>
  );
}

/** organizations/{org}/settings/teams/members: who is in which team, with which role. */
export default function OrganizationTeamMembersPage() {
  return (
    <OrganizationTeamsFrame
      route="org.settings.teams.members"
      title="Team members"
      summary="Who is in which team and their role there: admins manage the team, members create links, viewers read them."
    >
      {(organization) => <Members organization={organization} />}
    </OrganizationTeamsFrame>
  );
}
