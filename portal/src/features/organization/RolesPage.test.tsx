import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import RolesPage from './RolesPage.tsx';

const organization = (ownerId: string, permissions: string[] | null) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: ownerId },
  organization_users:
    permissions === null ? [] : [{ user_id: TEST_USER_ID, role: { permissions } }],
});

const ROLES = [
  {
    id: 'role-a',
    name: 'Analyst',
    permissions: ['audit', 'domains'],
    organization_users: [{ count: 2 }],
  },
  {
    id: 'role-s',
    name: 'Supervisor',
    permissions: ['supervisor'],
    organization_users: [{ count: 0 }],
  },
];

function open(org: ReturnType<typeof organization>, backend = new TestBackend()) {
  backend.on('GET', '/rest/v1/organization_roles', () => json(ROLES));
  return render(
    <Routes>
      <Route path="/app/organizations/:org/settings/roles" element={<RolesPage />} />
    </Routes>,
    {
      world: signedInWorld({ organizations: [org] }),
      backend,
      route: '/app/organizations/acme/settings/roles',
    },
  );
}

describe('RolesPage', { timeout: 30_000 }, () => {
  it('shows each role with its people and permissions; the owner may change them', async () => {
    open(organization(TEST_USER_ID, null));
    const analyst = await screen.findByRole('region', { name: 'Analyst' });
    expect(within(analyst).getByText('2 people')).toBeInTheDocument();
    expect(within(analyst).getByRole('checkbox', { name: /^Audit/ })).toBeChecked();
    expect(within(analyst).getByRole('checkbox', { name: /^Teams/ })).not.toBeChecked();
    expect(within(analyst).getByRole('button', { name: 'Save role' })).toBeEnabled();
    expect(screen.getByRole('region', { name: 'New role' })).toBeInTheDocument();
  });

  it('says so, under the page title, when the address names no organization of the viewer', async () => {
    render(
      <Routes>
        <Route path="/app/organizations/:org/settings/roles" element={<RolesPage />} />
      </Routes>,
      {
        world: signedInWorld({ organizations: [] }),
        route: '/app/organizations/acme/settings/roles',
      },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This organization was not found.');
    expect(screen.getByRole('heading', { level: 1, name: 'Roles' })).toBeInTheDocument();
  });

  it('lets a member without the Roles permission read them only', async () => {
    open(organization('someone-else', ['audit']));
    const analyst = await screen.findByRole('region', { name: 'Analyst' });
    expect(within(analyst).getByRole('checkbox', { name: /^Audit/ })).toBeDisabled();
    expect(within(analyst).queryByRole('button', { name: 'Save role' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'New role' })).toBeNull();
  });

  it('creates a role with the ticked permissions, in the spec order', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/organization_roles', () => json({ id: 'role-new' }));
    const { user } = open(organization(TEST_USER_ID, null), backend);
    const form = await screen.findByRole('region', { name: 'New role' });
    await user.click(within(form).getByRole('button', { name: 'Create role' }));
    expect(await within(form).findByText('The name field is required.')).toBeInTheDocument();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'analyst');
    await user.click(within(form).getByRole('button', { name: 'Create role' }));
    expect(await within(form).findByText('The name has already been taken.')).toBeInTheDocument();
    await user.clear(within(form).getByRole('textbox', { name: 'Name' }));
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Helpers');
    await user.click(within(form).getByRole('checkbox', { name: /^Audit/ }));
    await user.click(within(form).getByRole('checkbox', { name: /^Teams/ }));
    await user.click(within(form).getByRole('button', { name: 'Create role' }));
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/rest/v1/organization_roles')).toHaveLength(1),
    );
    const body = await backend.requestsTo('POST', '/rest/v1/organization_roles')[0]!.clone().json();
    expect(body).toEqual({
      organization_id: 'org-1',
      name: 'Helpers',
      permissions: ['teams', 'audit'],
    });
  });

  it('says why a role people hold cannot be deleted', async () => {
    const backend = new TestBackend();
    backend.on('DELETE', '/rest/v1/organization_roles', () =>
      postgrestError(409, { code: '23503', message: 'violates foreign key constraint' }),
    );
    const { user } = open(organization(TEST_USER_ID, null), backend);
    const analyst = await screen.findByRole('region', { name: 'Analyst' });
    await user.click(within(analyst).getByRole('button', { name: 'Delete role' }));
    await user.click(within(analyst).getByRole('button', { name: 'Delete' }));
    expect(await within(analyst).findByRole('alert')).toHaveTextContent(
      'People still hold this role. Give them another role before deleting it.',
    );
  });
});
