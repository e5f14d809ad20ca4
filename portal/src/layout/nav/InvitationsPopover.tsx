import { ActionIcon, Button, Group, Indicator, Popover, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EnvelopeIcon } from '../../components/icons.tsx';
import {
  usePendingInvitationsQuery,
  type PendingInvitation,
} from '../../data/invitations-query.ts';
import { refreshAppState } from '../../data/refresh.ts';
import { unwrap } from '../../data/unwrap.ts';
import { useServices } from '../../lib/servicesContext.ts';
import type { Viewer } from '../../state/appState.ts';

/** Accepts or rejects an invitation; either way it leaves the list and the state is refreshed. */
function useAnswerInvitation(viewer: Viewer) {
  const { supabase, notify } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, accept }: { id: string; accept: boolean }) => {
      const call = accept
        ? supabase.rpc('accept_invitation', { p_invitation_id: id })
        : supabase.rpc('reject_invitation', { p_invitation_id: id });
      unwrap(await call);
      return accept;
    },
    onSuccess: (accepted) =>
      notify({
        message: accepted ? MESSAGES.invitationAccepted : MESSAGES.invitationRejected,
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      }),
    onSettled: () => refreshAppState(queryClient, viewer.id),
  });
}

function InvitationItem({ invitation, viewer }: { invitation: PendingInvitation; viewer: Viewer }) {
  const answer = useAnswerInvitation(viewer);
  const busy = answer.isPending;
  return (
    <Stack gap={4} component="li">
      <Text size="sm">
        Join the {invitation.source} <strong>{invitation.targetName}</strong>
      </Text>
      <Group gap="xs">
        <Button
          size="xs"
          loading={busy}
          onClick={() => answer.mutate({ id: invitation.id, accept: true })}
        >
          Accept
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={busy}
          onClick={() => answer.mutate({ id: invitation.id, accept: false })}
        >
          Reject
        </Button>
      </Group>
    </Stack>
  );
}

/** The invitations with Accept and Reject, or 'No Invitations'. */
export function InvitationList({
  viewer,
  invitations,
}: {
  viewer: Viewer;
  invitations: readonly PendingInvitation[];
}) {
  if (invitations.length === 0) return <Text size="sm">No Invitations</Text>;
  return (
    <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {invitations.map((invitation) => (
        <InvitationItem key={invitation.id} invitation={invitation} viewer={viewer} />
      ))}
    </Stack>
  );
}

/** The envelope with the count of pending invitations, opening their list. */
export function InvitationsPopover({ viewer }: { viewer: Viewer }) {
  const invitations = usePendingInvitationsQuery(viewer.email).data ?? [];
  const count = invitations.length;
  return (
    <Popover width={280} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={count > 0 ? `Invitations, ${count} pending` : 'Invitations'}
        >
          <Indicator disabled={count === 0} label={count} size={16} offset={2}>
            <EnvelopeIcon />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown aria-label="Invitations">
        <InvitationList viewer={viewer} invitations={invitations} />
      </Popover.Dropdown>
    </Popover>
  );
}
