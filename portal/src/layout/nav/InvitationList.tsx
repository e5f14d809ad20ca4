import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { mapApiError } from '@shortlane/shared/errors.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { OWN_ERROR_NOTICE_HEADER } from '../../api/globalResponses.ts';
import { forgetInvitation, type PendingInvitation } from '../../data/invitations-query.ts';
import { refreshAppState } from '../../data/refresh.ts';
import { ApiError, unwrap } from '../../data/unwrap.ts';
import { useServices } from '../../lib/servicesContext.ts';
import type { Viewer } from '../../state/appState.ts';

/**
 * What to say when answering failed (link-creation 8: "on error the first invitation error is
 * shown"): the answer asks the global handler for its flows but not its notice, so this is the
 * one message. Null where another flow speaks: an expired session, or a password confirmation
 * the user turned down.
 */
export function invitationErrorMessage(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status === 401 || error.status === 423) return null;
  const mapped = mapApiError(error.status, error.body);
  return mapped.fieldErrors.invitation ?? mapped.fieldErrors.form ?? mapped.notices[0] ?? null;
}

/**
 * Accepts or rejects an invitation (link-creation 4): it leaves the list and the state is
 * refreshed, so a team or organization joined shows up in the menus at once.
 */
function useAnswerInvitation(viewer: Viewer, onAnswered: () => void) {
  const { supabase, notify } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, accept }: { id: string; accept: boolean }) => {
      const call = accept
        ? supabase.rpc('accept_invitation', { p_invitation_id: id })
        : supabase.rpc('reject_invitation', { p_invitation_id: id });
      unwrap(await call.setHeader(OWN_ERROR_NOTICE_HEADER, '1'));
      return accept;
    },
    onSuccess: (accepted, { id }) => {
      forgetInvitation(queryClient, viewer.id, id);
      onAnswered();
      notify({
        message: accepted ? MESSAGES.invitationAccepted : MESSAGES.invitationRejected,
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    },
    onError: (error) => {
      const message = invitationErrorMessage(error);
      if (message) notify({ message, durationMs: NOTICE_DURATION_MS.default, tone: 'error' });
    },
    onSettled: () => refreshAppState(queryClient, viewer.id),
  });
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "the team Marketing of Acme", "the organization Acme". */
function targetText(invitation: PendingInvitation): string {
  if (invitation.source === 'team') {
    const team = invitation.team?.name ?? 'a team';
    return invitation.organization
      ? `the team ${team} of ${invitation.organization.name}`
      : `the team ${team}`;
  }
  return `the organization ${invitation.organization?.name ?? 'an organization'}`;
}

function InvitationItem({
  invitation,
  viewer,
  onAnswered,
}: {
  invitation: PendingInvitation;
  viewer: Viewer;
  onAnswered: () => void;
}) {
  const answer = useAnswerInvitation(viewer, onAnswered);
  const textId = useId();
  const busy = answer.isPending;
  const accepting = busy && answer.variables.accept;
  return (
    <Stack gap={6} component="li" aria-labelledby={textId}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {invitation.organization?.photoUrl && (
          // Decorative: the organization is named in the text beside it.
          <Avatar src={invitation.organization.photoUrl} alt="" size={32} radius="sm" />
        )}
        <Stack gap={2}>
          <Text size="sm" id={textId}>
            {invitation.inviterName ? `${invitation.inviterName} invited you to join ` : 'Join '}
            <strong>{targetText(invitation)}</strong>
            {invitation.role ? ` as ${capitalise(invitation.role)}` : ''}
          </Text>
          {invitation.message && (
            <Text size="sm" c="gray.7" fs="italic">
              “{invitation.message}”
            </Text>
          )}
        </Stack>
      </Group>
      <Group gap="xs">
        <Button
          size="xs"
          loading={accepting}
          disabled={busy && !accepting}
          aria-describedby={textId}
          onClick={() => answer.mutate({ id: invitation.id, accept: true })}
        >
          Accept
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={busy && !accepting}
          disabled={accepting}
          aria-describedby={textId}
          onClick={() => answer.mutate({ id: invitation.id, accept: false })}
        >
          Reject
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The invitations with Accept and Reject, or 'No Invitations'. An answered one leaves the list,
 * taking its buttons (and the focus) with it: `onAnswered` puts the focus somewhere sensible.
 */
export function InvitationList({
  viewer,
  invitations,
  onAnswered = () => {},
}: {
  viewer: Viewer;
  invitations: readonly PendingInvitation[];
  onAnswered?: () => void;
}) {
  if (invitations.length === 0) return <Text size="sm">No Invitations</Text>;
  return (
    <Stack gap="md" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {invitations.map((invitation) => (
        <InvitationItem
          key={invitation.id}
          invitation={invitation}
          viewer={viewer}
          onAnswered={onAnswered}
        />
      ))}
    </Stack>
  );
}
