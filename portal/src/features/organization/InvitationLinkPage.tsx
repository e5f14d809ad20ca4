import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { AuthCard } from '../../auth/AuthCard.tsx';
import { useAuth } from '../../auth/AuthContext.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  type LinkedInvitation,
  useAnswerLinkedInvitationMutation,
  useLinkedInvitationQuery,
} from '../../data/invitations/invitation-token.ts';
import { invitationErrorMessage } from '../../layout/nav/InvitationList.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href, loginPathFor, paths, RETURN_PARAM } from '../../routes/paths.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';

export const INVALID_INVITATION_LINK = 'This invitation link is not valid.';

/** "the team Marketing of Acme as member", "the organization Acme as Analyst". */
export function invitationTarget(invitation: LinkedInvitation): string {
  const place =
    invitation.source === 'team'
      ? `the team ${invitation.team?.name ?? ''}${invitation.organization ? ` of ${invitation.organization.name}` : ''}`
      : `the organization ${invitation.organization?.name ?? ''}`;
  return invitation.role ? `${place} as ${invitation.role}` : place;
}

/** Where a joined person goes: their new organization, or their teams. */
export function afterAcceptPath(invitation: LinkedInvitation): string {
  if (invitation.source === 'organization' && invitation.organization) {
    return href('org.root', { org: invitation.organization.slug });
  }
  return paths['settings.teams'];
}

function GuestChoices({ invitation, here }: { invitation: LinkedInvitation; here: string }) {
  const signUp = href('register', null, { email: invitation.email, [RETURN_PARAM]: here });
  return (
    <Stack gap="sm">
      <Text>
        {invitation.accountExists
          ? `Log in as ${invitation.email} to answer it.`
          : `Create your account with ${invitation.email} to answer it.`}
      </Text>
      <Group>
        {invitation.accountExists ? (
          <Button component={Link} to={loginPathFor(here)}>
            Log in
          </Button>
        ) : (
          <Button component={Link} to={signUp}>
            Sign up
          </Button>
        )}
        <Button
          variant="default"
          component={Link}
          to={invitation.accountExists ? signUp : loginPathFor(here)}
        >
          {invitation.accountExists ? 'Sign up' : 'I already have an account'}
        </Button>
      </Group>
    </Stack>
  );
}

function Answer({ invitation, token }: { invitation: LinkedInvitation; token: string }) {
  const answer = useAnswerLinkedInvitationMutation(token);
  const success = useSuccessNotice();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (choice: 'accept' | 'reject') => {
    setFailure(null);
    try {
      await answer.mutateAsync(choice);
      success(choice === 'accept' ? MESSAGES.invitationAccepted : MESSAGES.invitationRejected);
      void navigate(choice === 'accept' ? afterAcceptPath(invitation) : paths.homepage);
    } catch (error) {
      setFailure(invitationErrorMessage(error) ?? MESSAGES.somethingWentWrong);
    }
  };
  return (
    <Stack gap="sm">
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group>
        <Button
          loading={answer.isPending && answer.variables === 'accept'}
          disabled={answer.isPending}
          onClick={() => void run('accept')}
        >
          Accept
        </Button>
        <Button
          variant="default"
          loading={answer.isPending && answer.variables === 'reject'}
          disabled={answer.isPending}
          onClick={() => void run('reject')}
        >
          Reject
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * invitation/{token}: where an invitation mail's link leads. Anyone holding the link sees what
 * it invites to; a guest signs up (or logs in) with the invited address and comes back here;
 * the invited person accepts or rejects. The link answers once, until it expires, and only
 * for the address it was sent to (the database checks all three).
 */
export default function InvitationLinkPage() {
  const { token = '' } = useParams();
  const { pathname } = useLocation();
  const { productName } = useConfig();
  usePageTitle('Invitation', productName);
  const auth = useAuth();
  const invitation = useLinkedInvitationQuery(token);

  if (invitation.isPending || auth.status === 'loading') return <PageLoader />;
  if (invitation.isError) {
    return (
      <AuthCard title="Invitation">
        <Alert color="red" role="alert">
          {INVALID_INVITATION_LINK}
        </Alert>
      </AuthCard>
    );
  }
  const found = invitation.data;
  const inviter = found.inviterName ?? 'Someone';
  const signedInAs = auth.user?.email?.toLowerCase() ?? null;

  return (
    <AuthCard title="Invitation">
      <Stack gap="md">
        <Text>
          {inviter} invited <strong>{found.email}</strong> to join {invitationTarget(found)}.
        </Text>
        {found.state === 'used' ? (
          <Alert color="gray" role="status">
            This invitation has already been answered.
          </Alert>
        ) : found.state === 'expired' ? (
          <Alert color="orange" role="status">
            This invitation has expired. Ask {inviter} for a new one.
          </Alert>
        ) : auth.status === 'guest' || signedInAs === null ? (
          <GuestChoices invitation={found} here={pathname} />
        ) : signedInAs !== found.email.toLowerCase() ? (
          <Alert color="orange" role="alert">
            This invitation was sent to {found.email}, and you are logged in as {signedInAs}. Log
            out and open the link again to answer it.
          </Alert>
        ) : (
          <Answer invitation={found} token={token} />
        )}
      </Stack>
    </AuthCard>
  );
}
