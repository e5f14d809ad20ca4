import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { mapApiError } from '@shortlane/shared/errors.ts';
import { TEAM_ROLES } from '@shortlane/shared/constants.ts';
import { teamInvitationSchema } from '@shortlane/shared/schemas/team.ts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import { SettingsSection } from '../../components/SettingsSection.tsx';
import {
  useChangeTeamMemberRoleMutation,
  useInviteTeamMemberMutation,
  useLeaveTeamMutation,
  useRemoveTeamMemberMutation,
  useWithdrawInvitationMutation,
} from '../../data/teams/team-membership-mutations.ts';
import {
  useTeamInvitationsQuery,
  useTeamMembersQuery,
  type TeamMember,
  type TeamRole,
} from '../../data/teams/team-members-query.ts';
import type { TeamDetail } from '../../data/teams/team-query.ts';
import { ApiError } from '../../data/unwrap.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { escapeHtml } from '../../lib/html.ts';
import { useDialogs } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { invitedMessage } from '../organization/invitedMessage.ts';
import { TeamSettingsFrame } from './TeamSettingsFrame.tsx';

const ROLE_LABELS: Record<TeamRole, string> = {
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};
const ROLE_OPTIONS = TEAM_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** The spec's message for a refused membership change (plan limit, not on the team…). */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const mapped = mapApiError(error.status, error.body);
    return mapped.notices[0] ?? 'Something went wrong.';
  }
  return 'Something went wrong.';
}

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

function MemberRow({
  team,
  member,
  manage,
  isOwner,
  isMe,
  onError,
}: {
  team: TeamDetail;
  member: TeamMember;
  manage: boolean;
  isOwner: boolean;
  isMe: boolean;
  onError: (message: string | null) => void;
}) {
  const change = useChangeTeamMemberRoleMutation(team.id);
  const remove = useRemoveTeamMemberMutation(team.id);
  const dialogs = useDialogs();
  const success = useSuccessNotice();
  const editable = manage && !isOwner && !isMe;
  const label = member.name || member.email;

  const changeRole = async (role: TeamRole) => {
    onError(null);
    try {
      await change.mutateAsync({ userId: member.userId, role });
      success(`${label} is now ${ROLE_LABELS[role].toLowerCase()}.`);
    } catch (error) {
      onError(failureMessage(error));
    }
  };
  const removeMember = async () => {
    const ok = await dialogs.confirm({
      title: 'Remove member',
      messageHtml: `<strong>${escapeHtml(label)}</strong> will leave the team ${escapeHtml(team.name)}.`,
      confirmLabel: 'Remove',
    });
    if (!ok) return;
    onError(null);
    try {
      await remove.mutateAsync(member.userId);
      success(`${label} was removed from the team.`);
    } catch (error) {
      onError(failureMessage(error));
    }
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600}>{member.name}</Text>
        <Text size="sm" c="gray.7">
          {member.email}
        </Text>
      </Table.Td>
      <Table.Td>
        {editable ? (
          <NativeSelect
            aria-label={`Role of ${label}`}
            data={ROLE_OPTIONS}
            value={member.role}
            disabled={change.isPending}
            onChange={(event) => void changeRole(event.currentTarget.value as TeamRole)}
          />
        ) : (
          <Group gap={6}>
            <Text>{ROLE_LABELS[member.role]}</Text>
            {isOwner && <Badge variant="light">Owner</Badge>}
            {isMe && <Badge variant="outline">You</Badge>}
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        {editable && (
          <Button
            variant="default"
            size="xs"
            loading={remove.isPending}
            onClick={() => void removeMember()}
            aria-label={`Remove ${label}`}
          >
            Remove
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
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
            <Table.ScrollContainer minWidth={480}>
              <Table verticalSpacing="sm" aria-label="Team members">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Member</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {members.data.map((member) => (
                    <MemberRow
                      key={member.userId}
                      team={team}
                      member={member}
                      manage={manage}
                      isOwner={member.userId === team.ownerId}
                      isMe={member.userId === me}
                      onError={setError}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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
