import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

// Whole-app renders on a loaded machine: more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID, type TestWorld } from '../../test/world.ts';

const TEAM_ROW = {
  id: 'team-1',
  account_id: 'team-account-1',
  slug: 'growth',
  name: 'Growth',
  photo_url: null,
  account: { owner_id: 'owner-1' },
};
const MEMBERSHIP = {
  role: 'admin',
  team: {
    id: 'team-1',
    account_id: 'team-account-1',
    slug: 'growth',
    name: 'Growth',
    archived_at: null,
    organization: null,
  },
};
const MEMBERS = [
  { user_id: 'owner-1', role: 'admin', profile: { name: 'Olga', email: 'olga@example.com' } },
  { user_id: TEST_USER_ID, role: 'admin', profile: { name: 'Ada', email: 'ada@example.com' } },
  { user_id: 'user-2', role: 'member', profile: { name: 'Ian', email: 'ian@example.com' } },
];

function world(overrides: Partial<TestWorld> = {}): TestWorld {
  return signedInWorld({
    accountFeatures: ['support_teams'],
    teamMemberships: [MEMBERSHIP],
    teamsBySlug: [TEAM_ROW],
    teamMembers: MEMBERS,
    ...overrides,
  });
}

/** The backend with the team pages' RPCs; `permissions` is what my_team_permissions says. */
function backendWith(permissions: string[]) {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/my_team_permissions', () => json(permissions));
  backend.on('GET', '/rest/v1/invitations', () => json([]));
  return backend;
}

const bodyOf = async (backend: TestBackend, rpc: string) => {
  const [request] = backend.requestsTo('POST', `/rest/v1/rpc/${rpc}`);
  return request ? ((await request.clone().json()) as unknown) : undefined;
};

const MEMBERSHIP_PATH = '/app/organization/_/team/growth/membership';

describe('team membership page', () => {
  it('an admin changes a role and removes a member after confirming', async () => {
    const backend = backendWith(['members', 'settings']);
    backend.on('POST', '/rest/v1/rpc/change_team_member_role', () =>
      json({ team_id: 'team-1', user_id: 'user-2', role: 'viewer' }),
    );
    backend.on(
      'POST',
      '/rest/v1/rpc/remove_team_member',
      () => new Response(null, { status: 204 }),
    );
    const { user } = renderApp({ route: MEMBERSHIP_PATH, world: world(), backend });

    const table = await screen.findByRole('table', { name: 'Team members' });
    // The owner and the user themselves are not editable; Ian is.
    expect(within(table).queryByLabelText('Role of Olga')).toBeNull();
    expect(within(table).queryByLabelText('Role of Ada')).toBeNull();
    await user.selectOptions(within(table).getByLabelText('Role of Ian'), 'viewer');
    expect(await screen.findByText('Ian is now viewer.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'change_team_member_role')).toEqual({
      p_team_id: 'team-1',
      p_user_id: 'user-2',
      p_role: 'viewer',
    });

    await user.click(within(table).getByRole('button', { name: 'Remove Ian' }));
    // The dialog's code loads on first use: its loading frame comes first, then the dialog.
    await screen.findByRole('dialog', { name: 'Remove member' });
    expect(await screen.findByText(/will leave the team Growth/)).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ian was removed from the team.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'remove_team_member')).toEqual({
      p_team_id: 'team-1',
      p_user_id: 'user-2',
    });
  });

  it('shows the spec message when the plan has no seat left or the person is already invited', async () => {
    const backend = backendWith(['members']);
    let answer = postgrestError(402, {
      message: 'team_limit_reached',
      details: "Your current plan doesn't allow you to create more teams or invite more members",
      hint: 'form',
    });
    backend.on('POST', '/rest/v1/invitations', () => answer);
    const { user } = renderApp({ route: MEMBERSHIP_PATH, world: world(), backend });

    const form = await screen.findByRole('form', { name: 'Invite a member' });
    await user.type(within(form).getByLabelText(/E-mail address/), 'new@example.com');
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(
      await within(form).findByText(
        "Your current plan doesn't allow you to create more teams or invite more members",
      ),
    ).toBeInTheDocument();

    answer = postgrestError(409, {
      message: 'already_member',
      details: 'That user is already on the team or invited',
      hint: 'invitation',
    });
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(
      await within(form).findByText('That user is already on the team or invited'),
    ).toBeInTheDocument();
    const [request] = backend.requestsTo('POST', '/rest/v1/invitations');
    expect(await request!.clone().json()).toMatchObject({
      team_id: 'team-1',
      email: 'new@example.com',
      team_role: 'member',
    });
  });

  it('checks the address before asking the server', async () => {
    const backend = backendWith(['members']);
    const { user } = renderApp({ route: MEMBERSHIP_PATH, world: world(), backend });
    const form = await screen.findByRole('form', { name: 'Invite a member' });
    await user.type(within(form).getByLabelText(/E-mail address/), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(
      await within(form).findByText('The email must be a valid email address.'),
    ).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/invitations')).toHaveLength(0);
  });

  it('a viewer sees the members read-only and may leave; a refusal shows its message', async () => {
    const backend = backendWith(['links.read']);
    backend.on('POST', '/rest/v1/rpc/leave_team', () =>
      postgrestError(403, {
        message: 'not_team_member',
        details: 'You are not a selected team member',
        hint: 'team',
      }),
    );
    const { user } = renderApp({ route: MEMBERSHIP_PATH, world: world(), backend });
    const table = await screen.findByRole('table', { name: 'Team members' });
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Invite a member' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Leave team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave team' });
    await user.click(await within(dialog).findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are not a selected team member',
    );
  });
});

describe('team profile page', () => {
  const PROFILE_PATH = '/app/organization/_/team/growth/profile';

  it('an admin renames the team; a taken slug is said under the field', async () => {
    const backend = backendWith(['settings', 'members']);
    backend.on('POST', '/rest/v1/rpc/update_team', () =>
      postgrestError(422, {
        message: 'slug_taken',
        details: 'The slug has already been taken.',
        hint: 'slug',
      }),
    );
    const { user } = renderApp({ route: PROFILE_PATH, world: world(), backend });
    const form = await screen.findByRole('form', { name: 'Team profile' });
    const slug = within(form).getByLabelText(/Slug/);
    await user.clear(slug);
    await user.type(slug, 'sales');
    await user.click(within(form).getByRole('button', { name: 'Save team' }));
    expect(await within(form).findByText('The slug has already been taken.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'update_team')).toEqual({
      p_team_id: 'team-1',
      p_name: 'Growth',
      p_slug: 'sales',
    });
  });

  it('a member sees the profile without a form', async () => {
    const backend = backendWith(['links.read', 'links.create']);
    renderApp({ route: PROFILE_PATH, world: world(), backend });
    expect(await screen.findByText("Only the team's admins can change its profile.")).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Team profile' })).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Team settings' })).toBeVisible();
  });
});

describe('settings/teams and team mode', () => {
  it('lists the teams and creates one, then opens its profile', async () => {
    const backend = backendWith(['settings', 'members']);
    backend.on('POST', '/rest/v1/rpc/create_team', () => json('team-2'));
    const { user, router } = renderApp({
      route: '/app/settings/teams',
      world: world(),
      backend,
    });
    const list = await screen.findByRole('table', { name: 'Your teams' });
    expect(within(list).getByRole('link', { name: 'Growth' })).toHaveAttribute(
      'href',
      '/app/organization/_/team/growth/profile',
    );
    const form = screen.getByRole('form', { name: 'Create a team' });
    // The slug left empty is derived from the name.
    await user.type(within(form).getByLabelText(/Team name/), 'Sales Team');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));
    await waitFor(() =>
      expect(currentUrl(router)).toBe('/app/organization/_/team/sales-team/profile'),
    );
    expect(await bodyOf(backend, 'create_team')).toEqual({
      p_name: 'Sales Team',
      p_slug: 'sales-team',
    });
  });

  it('switching team asks first, then opens the team settings', async () => {
    const backend = backendWith(['settings', 'members']);
    backend.on('POST', '/rest/v1/rpc/switch_team', () => json('team-1'));
    const { user, router } = renderApp({ route: '/app/terms', world: world(), backend });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav).findByRole('button', { name: 'Workspace: your account' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Growth' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch team' });
    expect(
      await within(dialog).findByText('You are going to switch to team Growth.'),
    ).toBeVisible();
    await user.click(await within(dialog).findByRole('button', { name: 'Switch' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/organization/_/team/growth/profile'));
    expect(await bodyOf(backend, 'switch_team')).toEqual({ p_team_id: 'team-1' });
  });

  it('a refused switch says only its own message', async () => {
    const backend = backendWith(['settings', 'members']);
    const answer = postgrestError(404, {
      message: 'unknown_team',
      details: 'Unknown team.',
      hint: 'team',
    });
    backend.on('POST', '/rest/v1/rpc/switch_team', () => answer);
    const { router } = renderApp({ route: '/app/team/team-1/switch', world: world(), backend });
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/teams'));
    expect(await screen.findByText('Unknown team.')).toBeInTheDocument();
    // One failure, one message: not the global "Not Found" beside it.
    expect(screen.queryByText('Not Found')).toBeNull();
  });

  it('a switch the team answers 424 goes to its login, without a global notice', async () => {
    const backend = backendWith(['settings', 'members']);
    backend.on('POST', '/rest/v1/rpc/switch_team', () =>
      postgrestError(424, { message: 'team_login_required', hint: 'team' }),
    );
    const { router } = renderApp({ route: '/app/team/team-1/switch', world: world(), backend });
    await waitFor(() => expect(currentUrl(router)).toBe('/app/organization/_/team/growth/sso'));
    expect(backend.requestsTo('POST', '/rest/v1/rpc/switch_team')).toHaveLength(1);
    expect(screen.queryByText('Something went wrong.')).toBeNull();
  });

  it('the switch route of an unknown team ends on settings/teams saying so', async () => {
    const backend = backendWith([]);
    const { router } = renderApp({ route: '/app/team/nope/switch', world: world(), backend });
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/teams'));
    expect(await screen.findByText('Unknown team.')).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/switch_team')).toHaveLength(0);
  });
});
