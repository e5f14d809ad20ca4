import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import OrganizationLandingPage from './OrganizationLandingPage.tsx';

type Member = { user_id: string; role: string };
const team = (slug: string, members: Member[], archivedAt: string | null = null) => ({
  slug,
  name: slug,
  archived_at: archivedAt,
  created_at: '2026-01-01T00:00:00Z',
  team_members: members,
});

const organization = (options: {
  ownerId?: string;
  permissions?: string[] | null;
  teams?: ReturnType<typeof team>[];
  archivedAt?: string | null;
}) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: options.archivedAt ?? null,
  account: { owner_id: options.ownerId ?? 'someone-else' },
  organization_users:
    options.permissions == null
      ? []
      : [{ user_id: TEST_USER_ID, role: { permissions: options.permissions } }],
  teams: options.teams ?? [],
});

function Where() {
  return <output aria-label="Address">{useLocation().pathname}</output>;
}

function open(org: ReturnType<typeof organization>, backend = new TestBackend()) {
  return render(
    <Routes>
      <Route path="/app/organizations/:org" element={<OrganizationLandingPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { world: signedInWorld({ organizations: [org] }), backend, route: '/app/organizations/acme' },
  );
}

const address = () => screen.findByRole('status', { name: 'Address' });

describe('OrganizationLandingPage', { timeout: 30_000 }, () => {
  it('sends the owner to the dashboard', async () => {
    open(organization({ ownerId: TEST_USER_ID }));
    expect(await address()).toHaveTextContent('/app/organizations/acme/dashboard');
  });

  it('sends a supervisor to the dashboard', async () => {
    open(organization({ permissions: ['supervisor'] }));
    expect(await address()).toHaveTextContent('/app/organizations/acme/dashboard');
  });

  it('sends a user with another role to org.me', async () => {
    open(organization({ permissions: ['audit'] }));
    expect(await address()).toHaveTextContent('/app/organizations/acme/me');
  });

  it('sends everyone else to their first live team', async () => {
    open(
      organization({
        teams: [
          team('gone', [{ user_id: TEST_USER_ID, role: 'admin' }], '2026-02-01T00:00:00Z'),
          team('others', [{ user_id: 'x', role: 'admin' }]),
          team('sales', [{ user_id: TEST_USER_ID, role: 'viewer' }]),
        ],
      }),
    );
    expect(await address()).toHaveTextContent('/app/organizations/acme/team/sales');
  });

  it('says so when there is nowhere to go', async () => {
    open(organization({ teams: [team('others', [{ user_id: 'x', role: 'admin' }])] }));
    expect(await screen.findByText('Nothing to open here yet')).toBeInTheDocument();
  });

  it('asks the owner to restore an archived organization first', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/organization_restore_summary', () =>
      json({ admins: [], admin_count: 1, team_count: 0, member_count: 0, link_count: 0 }),
    );
    const { user } = open(
      organization({ ownerId: TEST_USER_ID, archivedAt: '2026-11-01T00:00:00Z' }),
      backend,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Restore Acme?' });
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(dialog).not.toBeInTheDocument();
    expect(screen.getByText('This organization is archived')).toBeInTheDocument();
    expect(backend.requestsTo('POST', '/rest/v1/rpc/archive_organization')).toHaveLength(0);
  });

  it('tells a member of an archived organization that only its owner restores it', async () => {
    open(organization({ permissions: ['supervisor'], archivedAt: '2026-11-01T00:00:00Z' }));
    expect(await screen.findByText('Only its owner can restore it.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
