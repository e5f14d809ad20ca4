import { Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { slugFromName, teamProfileSchema } from '@shortlane/shared/schemas/team.ts';
import { Link, useNavigate } from 'react-router-dom';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import { useCreateTeamMutation } from '../../data/teams/team-profile-mutations.ts';
import { STANDALONE_TEAM_ORG } from '../../data/teams-query.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { SLUG_DESCRIPTION_STYLES } from './formStyles.ts';
import { teamSettingsPath } from './teamMode.ts';
import { useTeamSwitch } from './useTeamSwitch.ts';

const checkTeam = validateWith(teamProfileSchema);
const withSlug = (values: { name: string; slug: string }) => ({
  ...values,
  slug: values.slug.trim() || slugFromName(values.name),
});

function CreateTeamForm() {
  const create = useCreateTeamMutation();
  const success = useSuccessNotice();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { name: '', slug: '' },
    // An empty slug is derived from the name (the rule the field's description states).
    validate: (values) => checkTeam(withSlug(values)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const team = teamProfileSchema.parse(withSlug(values));
      await create.mutateAsync(team);
      success(`The team ${team.name} was created.`);
      void navigate(href('team.profile', { org: STANDALONE_TEAM_ORG, team: team.slug }));
    } catch (error) {
      form.setErrors(await formErrorsFromError(error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create a team" aria-busy={create.isPending}>
      <Stack gap="sm">
        <TextInput
          label="Team name"
          required
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <TextInput
          label="Slug"
          description="Lower-case letters, numbers and dashes; it names the team's pages. Leave it empty to derive it from the name."
          styles={SLUG_DESCRIPTION_STYLES}
          key={form.key('slug')}
          {...form.getInputProps('slug')}
        />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create team
          </Button>
        </Group>
      </Stack>
    </form>
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
        <CreateTeamForm />
      </SettingsSection>
    </Stack>
  );
}
