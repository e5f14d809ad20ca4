import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld, type TestWorld } from '../../test/world.ts';

// Whole conversations with the shell on a shared 2-core machine: more than the default 5 s.
const SLOW = 20_000;

type Invitation = NonNullable<TestWorld['invitations']>[number];

const TEAM_INVITATION: Invitation = {
  id: 'inv-team',
  email: 'ada@example.com',
  source: 'team',
  created_at: '2026-11-20T00:00:00Z',
  updated_at: '2026-11-21T00:00:00Z',
  team_role: 'member',
  message: 'Come and help with the launch.',
  team: { name: 'Marketing', slug: 'marketing' },
  organization: { name: 'Acme', slug: 'acme', photo_url: null },
  organization_role: null,
  inviter: { name: 'Grace Hopper' },
};
const ORGANIZATION_INVITATION: Invitation = {
  id: 'inv-org',
  email: 'ada@example.com',
  source: 'organization',
  created_at: '2026-11-19T00:00:00Z',
  updated_at: '2026-11-19T00:00:00Z',
  team_role: null,
  message: null,
  team: null,
  organization: { name: 'Globex', slug: 'globex', photo_url: null },
  organization_role: { name: 'Supervisor' },
  inviter: null,
};

function renderWithInvitations() {
  const backend = new TestBackend();
  // A developer allowed teams: the bar reads their teams and organizations (both refreshed).
  const world = signedInWorld({
    profile: { is_developer: true },
    accountFeatures: ['support_teams'],
    invitations: [TEAM_INVITATION, ORGANIZATION_INVITATION],
  });
  const rendered = renderApp({ route: '/app/terms', world, backend });
  /** The RPC answers as the database would: an answered invitation is no longer pending. */
  const answerWith = (rpc: string, status: 'accepted' | 'rejected') =>
    backend.on('POST', `/rest/v1/rpc/${rpc}`, async (request) => {
      const { p_invitation_id: id } = (await request.json()) as { p_invitation_id: string };
      const index = world.invitations!.findIndex((invitation) => invitation.id === id);
      world.invitations!.splice(index, 1);
      return json({ id, status });
    });
  answerWith('accept_invitation', 'accepted');
  answerWith('reject_invitation', 'rejected');
  return { ...rendered, world };
}

async function openInvitations(user: ReturnType<typeof renderApp>['user'], name: string) {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  await user.click(await within(nav).findByRole('button', { name }));
  return screen.findByRole('dialog', { name: 'Invitations' });
}

const notices = (rendered: ReturnType<typeof renderApp>) =>
  rendered.services.noticeStore.getState().notifications.map((notice) => notice.message);

describe('the invitations popover', () => {
  it(
    'says who invites the user to what, as which role, with their message',
    async () => {
      const { user } = renderWithInvitations();
      const popover = await openInvitations(user, 'Invitations, 2 pending');
      const [team, organization] = await within(popover).findAllByRole('listitem');
      expect(team).toHaveTextContent(
        'Grace Hopper invited you to join the team Marketing of Acme as Member',
      );
      expect(team).toHaveTextContent('“Come and help with the launch.”');
      expect(organization).toHaveTextContent('Join the organization Globex as Supervisor');
      expect(within(team!).getByRole('button', { name: 'Accept' })).toHaveAccessibleDescription(
        /team Marketing of Acme/,
      );
    },
    SLOW,
  );

  it(
    'accepting says so, takes it out of the list and refreshes the teams and organizations',
    async () => {
      const rendered = renderWithInvitations();
      const { user, backend } = rendered;
      const popover = await openInvitations(user, 'Invitations, 2 pending');
      const teamReads = () => backend.requestsTo('GET', '/rest/v1/team_members').length;
      const organizationReads = () => backend.requestsTo('GET', '/rest/v1/organizations').length;
      const before = { teams: teamReads(), organizations: organizationReads() };

      const [team] = await within(popover).findAllByRole('listitem');
      await user.click(within(team!).getByRole('button', { name: 'Accept' }));
      expect(await screen.findByText('The invitation has been accepted.')).toBeVisible();
      const call = backend.requestsTo('POST', '/rest/v1/rpc/accept_invitation')[0]!;
      expect(await call.json()).toEqual({ p_invitation_id: 'inv-team' });
      await waitFor(() => expect(within(popover).getAllByRole('listitem')).toHaveLength(1));
      expect(within(popover).getByRole('heading', { name: 'Invitations' })).toHaveFocus();
      await waitFor(() => expect(teamReads()).toBeGreaterThan(before.teams));
      await waitFor(() => expect(organizationReads()).toBeGreaterThan(before.organizations));
      const nav = screen.getByRole('navigation', { name: 'Main' });
      expect(
        await within(nav).findByRole('button', { name: 'Invitations, 1 pending' }),
      ).toBeVisible();
    },
    SLOW,
  );

  it(
    "rejecting says so; the last one leaves 'No Invitations'",
    async () => {
      const rendered = renderWithInvitations();
      const { user, world } = rendered;
      world.invitations!.splice(1, 1);
      const popover = await openInvitations(user, 'Invitations, 1 pending');
      await user.click(within(popover).getByRole('button', { name: 'Reject' }));
      expect(await screen.findByText('The invitation has been rejected.')).toBeVisible();
      expect(await within(popover).findByText('No Invitations')).toBeVisible();
      expect(notices(rendered)).toEqual(['The invitation has been rejected.']);
    },
    SLOW,
  );

  it(
    'a refused answer shows the first invitation error, and the invitation stays',
    async () => {
      const rendered = renderWithInvitations();
      const { user, backend } = rendered;
      backend.on('POST', '/rest/v1/rpc/accept_invitation', () =>
        postgrestError(409, {
          message: 'already_member',
          details: 'That user is already on the team or invited',
          hint: 'invitation',
        }),
      );
      const popover = await openInvitations(user, 'Invitations, 2 pending');
      await user.click(within(popover).getAllByRole('button', { name: 'Accept' })[0]!);
      expect(await screen.findByText('That user is already on the team or invited')).toBeVisible();
      expect(await within(popover).findAllByRole('listitem')).toHaveLength(2);
      expect(notices(rendered)).not.toContain('The invitation has been accepted.');
    },
    SLOW,
  );

  it(
    'a vanished invitation says "Invitation not found." once, without the global Not Found',
    async () => {
      const rendered = renderWithInvitations();
      const { user, backend } = rendered;
      backend.on('POST', '/rest/v1/rpc/reject_invitation', () =>
        postgrestError(404, {
          message: 'invitation_not_found',
          details: 'Invitation not found.',
          hint: 'invitation',
        }),
      );
      const popover = await openInvitations(user, 'Invitations, 2 pending');
      await user.click(within(popover).getAllByRole('button', { name: 'Reject' })[1]!);
      await waitFor(() => expect(notices(rendered)).toEqual(['Invitation not found.']));
    },
    SLOW,
  );
});
