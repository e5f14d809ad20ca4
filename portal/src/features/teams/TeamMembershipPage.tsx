import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { teamInvitationSchema } from '@shortlane/shared/schemas/team.ts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import {
  useInviteTeamMemberMutation,
  useLeaveTeamMutation,
  useWithdrawInvitationMutation,
} from '../../data/teams/team-membership-mutations.ts';
import {
  useTeamInvitationsQuery,
  useTeamMembersQuery,
  type TeamRole,
} from '../../data/teams/team-members-query.ts';
import type { TeamDetail } from '../../data/teams/team-query.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { escapeHtml } from '../../lib/html.ts';
import { useDialogs } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { failureMessage, ROLE_LABELS, ROLE_OPTIONS, TeamMembersTable } from './TeamMemberRow.tsx';
import { invitedMessage } from '../organization/invitedMessage.ts';
import { TeamSettingsFrame } from './TeamSettingsFrame.tsx';

function InviteForm({ team }: { team: TeamDetail }) {
  const invite = useInviteTeamMemberMutation(team.id);
  const success = useSuccessNotice();
  const form = useForm<{ email: string; role: TeamRole }>({
    initialValues: { email: '', role: 'member' },
    validate: validateWith(teamInvitationSchema),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const parsed = teamInvitationSchema.parse(values);
      const { mailed } = await invite.mutateAsync(parsed);
      success(invitedMessage(parsed.email, mailed));
      form.reset();
    } catch (error) {
      const errors = await formErrorsFromError(error);
      // Plan limits and "already on the team" concern the address as a whole.
      const message = errors.invitation ?? errors.form ?? null;
      form.setErrors(message ? { email: message } : errors);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Invite a member" aria-busy={invite.isPending}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="E-mail address"
          type="email"
          autoComplete="off"
          required
          style={{ flex: '1 1 16rem' }}
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <NativeSelect
          label="Role"
          data={ROLE_OPTIONS}
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
        <Button type="submit" mt={25} loading={invite.isPending}>
          Invite
        </Button>
      </Group>
    </form>
  );
}

function PendingInvitations({ team }: { team: TeamDetail }) {
  const invitations = useTeamInvitationsQuery(team.id, true);
  const withdraw = useWithdrawInvitationMutation();
  const success = useSuccessNotice();
  if (invitations.isPending) return <PageLoader />;
  if (invitations.isError) {
    return <Alert color="red" title="The invitations could not be loaded" />;
  }
  if (invitations.data.length === 0) return <Text c="gray.7">No pending invitations.</Text>;
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {invitations.data.map((invitation) => (
        <Group key={invitation.id} component="li" justify="space-between" wrap="wrap">
          <Text>
            {invitation.email} · {ROLE_LABELS[invitation.role]}
          </Text>
          <Button
            variant="default"
            size="xs"
            aria-label={`Withdraw the invitation of ${invitation.email}`}
            loading={withdraw.isPending && withdraw.variables === invitation.id}
            onClick={() =>
              void withdraw
                .mutateAsync(invitation.id)
                .then(() => success(`The invitation of ${invitation.email} was withdrawn.`))
                .catch(() => undefined)
            }
          >
            Withdraw
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

function LeaveTeam({ team }: { team: TeamDetail }) {
  const leave = useLeaveTeamMutation();
  const dialogs = useDialogs();
  const success = useSuccessNotice();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    const ok = await dialogs.confirm({
      title: 'Leave team',
      messageHtml: `You will leave the team <strong>${escapeHtml(team.name)}</strong>.`,
      confirmLabel: 'Leave',
    });
    if (!ok) return;
    setError(null);
    try {
      await leave.mutateAsync(team.id);
      success(`You left the team ${team.name}.`);
      void navigate(paths['settings.teams']);
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  return (
    <Stack gap="xs" align="flex-start">
      <Button color="red" variant="light" loading={leave.isPending} onClick={() => void run()}>
        Leave team
      </Button>
      {error && (
        <Text role="alert" c="red.8" size="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function Membership({ team }: { team: TeamDetail }) {
  const viewer = useViewer();
  const members = useTeamMembersQuery(team.id);
  const [error, setError] = useState<string | null>(null);
  const manage = team.permissions.includes('members');
  const me = viewer?.id ?? null;
  const onTeam = members.data?.some((member) => member.userId === me) ?? false;

  return (
    <>
      <SettingsSection title="Members">
        {members.isPending ? (
          <PageLoader />
        ) : members.isError ? (
          <Alert color="red" title="The members could not be loaded">
            <Button variant="light" size="xs" mt="xs" onClick={() => void members.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : members.data.length === 0 ? (
          <Text c="gray.7">No members yet.</Text>
        ) : (
          <Stack gap="sm">
            {error && (
              <Alert
                color="red"
                role="alert"
                title={error}
                onClose={() => setError(null)}
                withCloseButton
              />
            )}
            <TeamMembersTable
              team={team}
              members={members.data}
              manage={manage}
              me={me}
              label="Team members"
              onError={setError}
            />
          </Stack>
        )}
      </SettingsSection>
      {manage && (
        <SettingsSection title="Invite a member">
          <Stack gap="md">
            <InviteForm team={team} />
            <PendingInvitations team={team} />
          </Stack>
        </SettingsSection>
      )}
      {onTeam && me !== team.ownerId && (
        <SettingsSection title="Leave team">
          <LeaveTeam team={team} />
        </SettingsSection>
      )}
    </>
  );
}

/** organization/{org}/team/{team}/membership: members, roles, invitations, leaving. */
export default function TeamMembershipPage() {
  return (
    <TeamSettingsFrame title="Team members">
      {(team) => <Membership team={team} />}
    </TeamSettingsFrame>
  );
}
