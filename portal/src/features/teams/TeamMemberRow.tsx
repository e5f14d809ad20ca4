import { Badge, Button, Group, NativeSelect, Table, Text, VisuallyHidden } from '@mantine/core';
import { mapApiError } from '@shortlane/shared/errors.ts';
import { TEAM_ROLES } from '@shortlane/shared/constants.ts';
import {
  useChangeTeamMemberRoleMutation,
  useRemoveTeamMemberMutation,
} from '../../data/teams/team-membership-mutations.ts';
import type { TeamMember, TeamRole } from '../../data/teams/team-members-query.ts';
import type { TeamDetail } from '../../data/teams/team-query.ts';
import { ApiError } from '../../data/unwrap.ts';
import { escapeHtml } from '../../lib/html.ts';
import { useDialogs } from '../../lib/servicesContext.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';

/**
 * One member of a team with their role, changeable and removable by whoever manages the team's
 * members: the team's membership page and the organization's settings/teams/members share it.
 */

export const ROLE_LABELS: Record<TeamRole, string> = {
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};
export const ROLE_OPTIONS = TEAM_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** The spec's message for a refused membership change (plan limit, not on the team…). */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const mapped = mapApiError(error.status, error.body);
    return mapped.notices[0] ?? 'Something went wrong.';
  }
  return 'Something went wrong.';
}

export function MemberRow({
  team,
  member,
  manage,
  isOwner,
  isMe,
  onError,
}: {
  team: Pick<TeamDetail, 'id' | 'name'>;
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

/** A team's members, one MemberRow each; the team's owner and the viewer stay read-only. */
export function TeamMembersTable({
  team,
  members,
  manage,
  me,
  label,
  onError,
}: {
  team: Pick<TeamDetail, 'id' | 'name' | 'ownerId'>;
  members: readonly TeamMember[];
  manage: boolean;
  me: string | null;
  /** The table's accessible name. */
  label: string;
  onError: (message: string | null) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table verticalSpacing="sm" aria-label={label}>
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
          {members.map((member) => (
            <MemberRow
              key={member.userId}
              team={team}
              member={member}
              manage={manage}
              isOwner={member.userId === team.ownerId}
              isMe={member.userId === me}
              onError={onError}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
