import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import AuditTrailPage from './AuditTrailPage.tsx';

const ORGANIZATION = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: TEST_USER_ID },
  organization_users: [],
};

const event = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  created_at: '2026-11-20T10:00:00.000Z',
  actor_id: 'u-ann',
  actor_email: 'ann@example.com',
  actor_name: 'Ann',
  action: 'team_member.updated',
  subject_table: 'team_members',
  subject_id: 'u-bob',
  target: 'bob@example.com in Growth',
  ip: '203.0.113.7',
  old_values: { role: 'member' },
  new_values: { role: 'viewer' },
  ...overrides,
});

function open(trail: (body: Record<string, unknown>) => Response) {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/organization_audit_trail', async (request) =>
    trail((await request.json()) as Record<string, unknown>),
  );
  backend.on('POST', '/rest/v1/rpc/organization_audit_filters', () =>
    json({
      actors: [{ id: 'u-ann', email: 'ann@example.com', name: 'Ann' }],
      actions: ['link.created', 'team_member.updated'],
    }),
  );
  return render(
    <Routes>
      <Route path="/app/organizations/:org/audit" element={<AuditTrailPage />} />
    </Routes>,
    {
      world: signedInWorld({ organizations: [ORGANIZATION] }),
      backend,
      route: '/app/organizations/acme/audit',
    },
  );
}

const trailBodies = (backend: TestBackend) =>
  backend.requestsTo('POST', '/rest/v1/rpc/organization_audit_trail');

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.restoreAllMocks();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

// A table of fifty rows with Mantine takes seconds on a loaded 2-core machine.
describe('AuditTrailPage', { timeout: 30_000 }, () => {
  it('lists events with actor, action, target, IP and what changed', async () => {
    const { user } = open(() => json([event(2), event(1, { action: 'link.created', ip: null })]));
    const table = await screen.findByRole('table', { name: 'Audit events' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('Team member updated')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('bob@example.com in Growth')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Link created')).toBeInTheDocument();
    await user.click(within(rows[1]!).getByText('1 field'));
    expect(within(rows[1]!).getByText('member → viewer')).toBeVisible();
  });

  it('asks the database again with the chosen actor and action', async () => {
    const { user, backend } = open(() => json([event(1)]));
    await screen.findByRole('table', { name: 'Audit events' });
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Link created' }));
    await waitFor(async () => {
      const bodies = await Promise.all(
        trailBodies(backend).map((request) => request.clone().json()),
      );
      expect(bodies.at(-1)).toMatchObject({
        p_organization_id: 'org-1',
        p_action: 'link.created',
        p_limit: 50,
      });
    });
  });

  it('says so when nothing has changed yet', async () => {
    open(() => json([]));
    expect(await screen.findByText('Nothing has changed yet.')).toBeInTheDocument();
  });

  it('explains a refusal instead of showing an error', async () => {
    open(() =>
      postgrestError(403, {
        code: 'PT403',
        message: 'permission_denied',
        details: 'Permission denied',
      }),
    );
    expect(await screen.findByText('Not available to you')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('offers older changes after a full page', async () => {
    const page = Array.from({ length: 50 }, (_, index) => event(100 - index));
    const { user } = open((body) => json(body.p_before_id === 51 ? [event(7)] : page));
    await user.click(await screen.findByRole('button', { name: 'Show older changes' }));
    await waitFor(() =>
      expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(52),
    );
    expect(screen.queryByRole('button', { name: 'Show older changes' })).toBeNull();
  });

  it('exports every page under the filters as one CSV file', async () => {
    const saved: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs; capture what would be downloaded instead.
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob as Blob);
      return `blob:test/${saved.length}`;
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const full = Array.from({ length: 1000 }, (_, index) => event(2000 - index));
    const { user, backend } = open((body) =>
      json(body.p_limit === 1000 ? (body.p_before_id === 1001 ? [event(3)] : full) : [event(1)]),
    );
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual([expect.stringMatching(/^audit-acme-.*\.csv$/)]));
    const lines = (await saved[0]!.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 1001);
    expect(lines[0]).toBe('time,actor,action,target,subject,subject_id,ip,before,after');
    expect(trailBodies(backend).length).toBe(3);
  });
});
