import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import OrganizationUsersPage from './OrganizationUsersPage.tsx';

const ROLE_A = '6f1c1d3e-5a1b-4c1d-9e2f-0a1b2c3d4e5a';
const ROLE_S = '6f1c1d3e-5a1b-4c1d-9e2f-0a1b2c3d4e5b';

const ROLES = [
  { id: ROLE_A, name: 'Analyst', permissions: ['audit'], organization_users: [{ count: 1 }] },
  { id: ROLE_S, name: 'Supervisor', permissions: ['supervisor'], organization_users: [] },
];

const ian = {
  user_id: 'user-ian',
  role_id: ROLE_A,
  created_at: '2026-01-02T00:00:00Z',
  profile: { name: 'Ian', email: 'ian@example.com' },
  role: { name: 'Analyst', permissions: ['audit'] },
};

/** The organization as both the slug lookup and the people list select it. */
const organization = (ownerId: string, myPermissions: string[] | null) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: ownerId },
  organization_users: [
    ian,
    ...(myPermissions === null
      ? []
      : [
          {
            user_id: TEST_USER_ID,
            role_id: ROLE_S,
            created_at: '2026-01-03T00:00:00Z',
            profile: { name: 'Ada Lovelace', email: 'ada@example.com' },
            role: { name: 'Supervisor', permissions: myPermissions },
          },
        ]),
  ],
});

function open(org: ReturnType<typeof organization>, backend = new TestBackend()) {
  backend.on('GET', '/rest/v1/organization_roles', () => json(ROLES));
  const rendered = render(
    <Routes>
      <Route path="/app/organizations/:org/settings/users" element={<OrganizationUsersPage />} />
    </Routes>,
    {
      world: signedInWorld({
        organizations: [org],
        invitations: [
          {
            id: 'inv-1',
            email: 'pending@example.com',
            source: 'organization',
            created_at: '2026-01-04T00:00:00Z',
            team: null,
            organization: { name: 'Acme', slug: 'acme', photo_url: null },
            organization_role: { name: 'Analyst' },
          },
        ],
      }),
      backend,
      route: '/app/organizations/acme/settings/users',
    },
  );
  return { ...rendered, backend: rendered.backend };
}

const bodyOf = async (backend: TestBackend, method: string, path: string) => {
  const [request] = backend.requestsTo(method, path);
  return request ? ((await request.clone().json()) as unknown) : undefined;
};

describe('OrganizationUsersPage', { timeout: 30_000 }, () => {
  it('the owner changes a role and removes a user after confirming', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/change_organization_user_role', () =>
      json({ organization_id: 'org-1', user_id: 'user-ian', role_id: ROLE_S }),
    );
    backend.on(
      'POST',
      '/rest/v1/rpc/remove_organization_user',
      () => new Response(null, { status: 204 }),
    );
    const { user } = open(organization(TEST_USER_ID, null), backend);

    const table = await screen.findByRole('table', { name: 'Organization users' });
    // The owner (the user here) holds every permission and is not editable.
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Ada Lovelace');
    expect(rows[1]).toHaveTextContent('Owner');
    await user.selectOptions(within(table).getByLabelText('Role of Ian'), ROLE_S);
    expect(await screen.findByText('Ian now holds the role Supervisor.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'POST', '/rest/v1/rpc/change_organization_user_role')).toEqual({
      p_organization_id: 'org-1',
      p_user_id: 'user-ian',
      p_role_id: ROLE_S,
    });

    await user.click(within(table).getByRole('button', { name: 'Remove Ian' }));
    await screen.findByRole('dialog', { name: 'Remove user' });
    expect(await screen.findByText(/will leave the organization acme and its teams/)).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ian was removed from the organization.')).toBeInTheDocument();
    expect(await bodyOf(backend, 'POST', '/rest/v1/rpc/remove_organization_user')).toEqual({
      p_organization_id: 'org-1',
      p_user_id: 'user-ian',
    });
  });

  it('invites by e-mail with a role, mails the link, and shows the plan limit', async () => {
    const backend = new TestBackend();
    let answer = postgrestError(402, {
      message: 'team_limit_reached',
      details: "Your current plan doesn't allow you to create more teams or invite more members",
      hint: 'form',
    });
    backend.on('POST', '/rest/v1/invitations', () => answer);
    backend.on('POST', '/functions/v1/invitation-mail', () => json({ sent: true }));
    const { user } = open(organization(TEST_USER_ID, null), backend);

    const form = await screen.findByRole('form', { name: 'Invite a user' });
    expect(screen.getByText('pending@example.com · Analyst')).toBeInTheDocument();
    await user.type(within(form).getByLabelText(/E-mail address/), 'new@example.com');
    await user.selectOptions(within(form).getByLabelText('Role'), ROLE_S);
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(
      await within(form).findByText(
        "Your current plan doesn't allow you to create more teams or invite more members",
      ),
    ).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/functions/v1/invitation-mail')).toHaveLength(0);

    answer = json({ id: '1b2c3d4e-0000-4000-8000-000000000001' }, { status: 201 });
    await user.click(within(form).getByRole('button', { name: 'Invite' }));
    expect(
      await screen.findByText('new@example.com was invited. The invitation mail is on its way.'),
    ).toBeInTheDocument();
    const inserts = backend.requestsTo('POST', '/rest/v1/invitations');
    expect(await inserts[1]!.clone().json()).toEqual({
      email: 'new@example.com',
      inviter_id: TEST_USER_ID,
      organization_id: 'org-1',
      organization_role_id: ROLE_S,
    });
    expect(await bodyOf(backend, 'POST', '/functions/v1/invitation-mail')).toEqual({
      invitation_id: '1b2c3d4e-0000-4000-8000-000000000001',
    });
  });

  it('a user without users nor invitations reads the list only', async () => {
    open(organization('someone-else', ['audit']));
    const table = await screen.findByRole('table', { name: 'Organization users' });
    expect(within(table).getByText('Ian')).toBeInTheDocument();
    expect(within(table).queryByRole('combobox')).toBeNull();
    expect(within(table).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Invite a user' })).toBeNull();
    expect(
      screen.getByText(/Only the owner and holders of the Users permission change roles/),
    ).toBeInTheDocument();
  });
});
