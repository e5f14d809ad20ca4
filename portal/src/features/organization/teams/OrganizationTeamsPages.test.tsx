import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, postgrestError, TestBackend } from '../../../test/backend.ts';
import { renderApp } from '../../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../../test/world.ts';

// Whole-app renders on a loaded machine: more than the default 5 s per test.
vi.setConfig({ testTimeout: 30_000 });

/** Acme, where the test user is the owner (permissions null) or holds a role's permissions. */
const organization = (permissions: string[] | null) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: permissions === null ? TEST_USER_ID : 'owner-1' },
  organization_users:
    permissions === null ? [] : [{ user_id: TEST_USER_ID, role: { permissions } }],
});

const TEAMS = [
  {
    id: 'team-1',
    account_id: 'team-acc-1',
    slug: 'marketing',
    name: 'Marketing',
    photo_url: null,
    archived_at: null,
    created_at: '2026-01-01T00:00:00Z',
    owner_id: 'owner-1',
    members: 3,
    links: 1200,
  },
  {
    id: 'team-2',
    account_id: 'team-acc-2',
    slug: 'sales',
    name: 'Sales',
    photo_url: null,
    archived_at: '2026-02-01T00:00:00Z',
    created_at: '2026-01-02T00:00:00Z',
    owner_id: 'owner-1',
    members: 1,
    links: 0,
  },
];

function open(route: string, permissions: string[] | null, backend = new TestBackend()) {
  backend.on('POST', '/rest/v1/rpc/organization_teams', () => json(TEAMS));
  return renderApp({
    route,
    backend,
    world: signedInWorld({
      organizations: [organization(permissions)],
      teamsBySlug: [{ id: 'team-1', name: 'Marketing', account_id: 'team-acc-1' }],
      teamMembers: [
        { user_id: 'owner-1', role: 'admin', profile: { name: 'Olga', email: 'olga@acme.test' } },
        { user_id: 'user-2', role: 'member', profile: { name: 'Ian', email: 'ian@acme.test' } },
      ],
    }),
  });
}

const bodyOf = async (backend: TestBackend, rpc: string) => {
  await waitFor(() =>
    expect(backend.requestsTo('POST', `/rest/v1/rpc/${rpc}`)).not.toHaveLength(0),
  );
  return (await backend.requestsTo('POST', `/rest/v1/rpc/${rpc}`)[0]!.clone().json()) as unknown;
};

const TEAMS_PATH = '/app/organizations/acme/settings/teams';

describe('settings/teams', () => {
  it('lists the teams with their counts; the owner creates one, and hears the plan limit', async () => {
    const backend = new TestBackend();
    let answer = postgrestError(402, {
      message: 'team_limit_reached',
      details: "Your current plan doesn't allow you to create more teams or invite more members",
      hint: 'form',
    });
    backend.on('POST', '/rest/v1/rpc/create_team', () => answer);
    const { user } = open(TEAMS_PATH, null, backend);

    const table = await screen.findByRole('table', { name: 'Organization teams' });
    const marketing = within(table).getByRole('row', { name: /Marketing/ });
    expect(within(marketing).getByText('3 members')).toBeInTheDocument();
    expect(within(marketing).getByText('1,200 links')).toBeInTheDocument();
    expect(within(marketing).getByText('Active')).toBeInTheDocument();
    expect(
      within(within(table).getByRole('row', { name: /Sales/ })).getByText('Archived'),
    ).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Create a team' });
    await user.type(within(form).getByLabelText(/Team name/), 'Growth Team');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      "Your current plan doesn't allow you to create more teams or invite more members",
    );
    expect(await bodyOf(backend, 'create_team')).toEqual({
      p_name: 'Growth Team',
      p_slug: 'growth-team',
      p_organization_id: 'org-1',
    });

    answer = json('team-3');
    await user.click(within(form).getByRole('button', { name: 'Create team' }));
    expect(await screen.findByText('The team Growth Team was created.')).toBeInTheDocument();
  });

  it('renames a team in a modal and archives or unarchives one after confirming', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/update_team', () => json({ id: 'team-1' }));
    backend.on('POST', '/rest/v1/rpc/archive_team', () => json({ id: 'team-1' }));
    const { user } = open(TEAMS_PATH, ['teams'], backend);

    const table = await screen.findByRole('table', { name: 'Organization teams' });
    await user.click(within(table).getByRole('button', { name: 'Rename Marketing' }));
    const rename = await screen.findByRole('form', { name: 'Rename Marketing' });
    const name = within(rename).getByLabelText(/Team name/);
    await user.clear(name);
    await user.type(name, 'Brand');
    const slug = within(rename).getByLabelText(/Slug/);
    await user.clear(slug);
    await user.type(slug, 'brand');
    await user.click(within(rename).getByRole('button', { name: 'Save team' }));
    expect(await screen.findByText('The team Brand was saved.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'update_team')).toEqual({
      p_team_id: 'team-1',
      p_name: 'Brand',
      p_slug: 'brand',
    });

    await user.click(within(table).getByRole('button', { name: 'Archive Marketing' }));
    await screen.findByRole('dialog', { name: 'Archive team' });
    await user.click(await screen.findByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('The team Marketing was archived.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'archive_team')).toEqual({
      p_team_id: 'team-1',
      p_archive: true,
    });
    expect(within(table).getByRole('button', { name: 'Unarchive Sales' })).toBeInTheDocument();
  });

  it('a supervisor reads the teams only and sees the links of their permissions', async () => {
    open(TEAMS_PATH, ['supervisor']);
    const table = await screen.findByRole('table', { name: 'Organization teams' });
    expect(within(table).queryByRole('button', { name: /Rename/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Create a team' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Team settings' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Teams', 'Members', 'API Tokens']);
  });

  it('refuses a role without teams, members or supervisor before asking for the teams', async () => {
    const { backend } = open(TEAMS_PATH, ['audit']);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your role in this organization does not include these settings.',
    );
    expect(backend.requestsTo('POST', '/rest/v1/rpc/organization_teams')).toHaveLength(0);
  });
});

describe('settings/teams/members', () => {
  it('shows who is in each active team; the owner adds a person with a role', async () => {
    const backend = new TestBackend();
    backend.on('GET', '/rest/v1/organization_users', () =>
      json([{ user_id: 'user-3', profile: { name: 'Una', email: 'una@acme.test' } }]),
    );
    let answer = postgrestError(409, {
      message: 'already_member',
      details: 'That user is already on the team or invited',
      hint: 'invitation',
    });
    backend.on('POST', '/rest/v1/rpc/add_team_member', () => answer);
    const { user } = open(`${TEAMS_PATH}/members`, null, backend);

    const members = await screen.findByRole('table', { name: 'Members of Marketing' });
    // The team's owner keeps their membership; Ian's role can change.
    expect(within(members).queryByLabelText('Role of Olga')).toBeNull();
    expect(within(members).getByLabelText('Role of Ian')).toBeInTheDocument();
    // Archived teams are not listed.
    expect(screen.queryByRole('table', { name: 'Members of Sales' })).toBeNull();

    const form = screen.getByRole('form', { name: 'Add a person to Marketing' });
    const person = within(form).getByLabelText('Person');
    await waitFor(() =>
      expect(
        within(person).getByRole('option', { name: 'Una (una@acme.test)' }),
      ).toBeInTheDocument(),
    );
    // Ian is on the team already: not offered.
    expect(within(person).queryByRole('option', { name: /Ian/ })).toBeNull();
    await user.selectOptions(person, 'user-3');
    await user.selectOptions(within(form).getByLabelText('Role'), 'viewer');
    await user.click(within(form).getByRole('button', { name: 'Add to team' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That user is already on the team or invited',
    );
    expect(await bodyOf(backend, 'add_team_member')).toEqual({
      p_team_id: 'team-1',
      p_user_id: 'user-3',
      p_role: 'viewer',
    });

    answer = json({ team_id: 'team-1', user_id: 'user-3', role: 'viewer' });
    await user.selectOptions(person, 'user-3');
    await user.click(within(form).getByRole('button', { name: 'Add to team' }));
    expect(await screen.findByText('Una joined Marketing as viewer.')).toBeInTheDocument();
  });

  it('a supervisor reads the members without changing them', async () => {
    open(`${TEAMS_PATH}/members`, ['supervisor']);
    const members = await screen.findByRole('table', { name: 'Members of Marketing' });
    expect(within(members).queryByLabelText('Role of Ian')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add a person to Marketing' })).toBeNull();
  });
});

describe('settings/teams/api', () => {
  it("a supervisor picks a team and sees its tokens, with the team's new-token page", async () => {
    const backend = new TestBackend();
    backend.on('GET', '/rest/v1/api_tokens', () =>
      json([
        {
          id: 'tok-1',
          name: 'Deploys',
          token_prefix: 'slt_abcdef',
          abilities: [],
          created_at: '2026-03-01T00:00:00Z',
          last_used_at: null,
          expires_at: null,
        },
      ]),
    );
    backend.on('POST', '/rest/v1/rpc/api_credits', () => json({ limit: null, used: 0 }));
    const { user, router } = open(`${TEAMS_PATH}/api`, ['supervisor'], backend);

    await user.selectOptions(await screen.findByLabelText('Team'), 'marketing');
    expect(await screen.findByRole('heading', { name: 'API tokens of Marketing' })).toBeVisible();
    expect(await screen.findByRole('rowheader', { name: 'Deploys' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?team=marketing');
    const [request] = backend.requestsTo('GET', '/rest/v1/api_tokens');
    expect(new URL(request!.url).searchParams.get('account_id')).toBe('eq.team-acc-1');
    expect(screen.getByRole('link', { name: 'New API token' })).toHaveAttribute(
      'href',
      '/app/organization/acme/team/marketing/api/new',
    );
  });
});
