import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import OrganizationProfilePage from './OrganizationProfilePage.tsx';

const organization = (
  ownerId: string,
  permissions: string[] | null,
  archivedAt: string | null = null,
) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  photo_url: null,
  archived_at: archivedAt,
  account: { owner_id: ownerId },
  organization_users:
    permissions === null ? [] : [{ user_id: TEST_USER_ID, role: { permissions } }],
});

function Where() {
  return <output aria-label="Address">{useLocation().pathname}</output>;
}

function open(org: ReturnType<typeof organization>, backend = new TestBackend()) {
  return render(
    <Routes>
      <Route
        path="/app/organizations/:org/settings/profile"
        element={
          <>
            <OrganizationProfilePage />
            <Where />
          </>
        }
      />
    </Routes>,
    {
      world: signedInWorld({ organizations: [org] }),
      backend,
      route: '/app/organizations/acme/settings/profile',
    },
  );
}

const SUMMARY = {
  admins: [
    { name: 'Olive Owner', email: 'olive@example.com' },
    { name: '', email: 'ursula@example.com' },
  ],
  admin_count: 2,
  team_count: 3,
  member_count: 1,
  link_count: 42,
};

describe('OrganizationProfilePage', { timeout: 30_000 }, () => {
  it('lets a holder of Profile rename the organization and change its slug', async () => {
    const backend = new TestBackend();
    backend.on('PATCH', '/rest/v1/organizations', () => json({ id: 'org-1' }));
    const { user } = open(organization('someone-else', ['profile']), backend);
    const form = await screen.findByRole('region', { name: 'Profile' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    const slug = within(form).getByRole('textbox', { name: /^Slug/ });
    expect(name).toHaveValue('Acme');
    // Not the owner: no archive section.
    expect(screen.queryByRole('region', { name: 'Archive' })).toBeNull();

    await user.clear(slug);
    await user.type(slug, 'Acme Co');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await within(form).findByText(
        'The slug may only contain lower-case letters, numbers and dashes.',
      ),
    ).toBeInTheDocument();
    expect(backend.requestsTo('PATCH', '/rest/v1/organizations')).toHaveLength(0);

    await user.clear(slug);
    await user.type(slug, 'acme-co');
    await user.clear(name);
    await user.type(name, ' Acme Company ');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent(
        '/app/organizations/acme-co/settings/profile',
      ),
    );
    const [patch] = backend.requestsTo('PATCH', '/rest/v1/organizations');
    expect(new URL(patch!.url).searchParams.get('id')).toBe('eq.org-1');
    expect(await patch!.clone().json()).toEqual({ name: 'Acme Company', slug: 'acme-co' });
  });

  it("stores a new photo in the organization's folder and points the organization at it", async () => {
    const backend = new TestBackend();
    backend.on('POST', /^\/storage\/v1\/object\/avatars\//, () => json({ Key: 'stored' }));
    backend.on('PATCH', '/rest/v1/organizations', () => json({ id: 'org-1' }));
    backend.on('POST', '/storage/v1/object/list/avatars', () =>
      json([{ name: 'old.png' }, { name: 'new.png' }]),
    );
    backend.on('DELETE', '/storage/v1/object/avatars', () => json([]));
    const { user, container } = open(organization(TEST_USER_ID, null), backend);
    await screen.findByRole('button', { name: 'Upload photo' });
    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type=file]')!;
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    await user.upload(input, new File([png], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText("The organization's photo was saved.")).toBeInTheDocument();
    const [stored] = backend.requests.filter(
      (request) => request.method === 'POST' && request.url.includes('/object/avatars/'),
    );
    const path = new URL(stored!.url).pathname.replace('/storage/v1/object/avatars/', '');
    expect(path).toMatch(/^organizations\/org-1\/[0-9a-f-]{36}\.png$/);
    const [patch] = backend.requestsTo('PATCH', '/rest/v1/organizations');
    expect(await patch!.clone().json()).toEqual({
      photo_url: `http://stack.test/storage/v1/object/public/avatars/${path}`,
    });
    // The listed files other than the new one go.
    const [removal] = backend.requestsTo('DELETE', '/storage/v1/object/avatars');
    expect(await removal!.clone().json()).toEqual({
      prefixes: ['organizations/org-1/old.png', 'organizations/org-1/new.png'],
    });
  });

  it('shows no photo buttons to members without Profile', async () => {
    open(organization('someone-else', ['audit']));
    await screen.findByRole('region', { name: 'Profile' });
    expect(screen.queryByRole('button', { name: 'Upload photo' })).toBeNull();
  });

  it('says a taken slug on the slug field', async () => {
    const backend = new TestBackend();
    backend.on('PATCH', '/rest/v1/organizations', () =>
      postgrestError(409, { code: '23505', message: 'duplicate key value' }),
    );
    const { user } = open(organization(TEST_USER_ID, null), backend);
    const form = await screen.findByRole('region', { name: 'Profile' });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The slug has already been taken.')).toBeInTheDocument();
  });

  it('is read-only to members without Profile', async () => {
    open(organization('someone-else', ['audit']));
    const form = await screen.findByRole('region', { name: 'Profile' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    expect(within(form).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByText(/Only the owner and holders of the Profile permission/)).toBeVisible();
  });

  it('lets the owner archive after confirming', async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/archive_organization', () => json({ id: 'org-1' }));
    const { user } = open(organization(TEST_USER_ID, null), backend);
    const section = await screen.findByRole('region', { name: 'Archive' });
    await user.click(within(section).getByRole('button', { name: 'Archive organization' }));
    const confirm = within(section).getByRole('group', { name: 'Archive Acme?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(backend.requestsTo('POST', '/rest/v1/rpc/archive_organization')).toHaveLength(0);
    await user.click(within(section).getByRole('button', { name: 'Archive organization' }));
    await user.click(within(section).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('The organization has been archived.')).toBeInTheDocument();
    const [call] = backend.requestsTo('POST', '/rest/v1/rpc/archive_organization');
    expect(await call!.clone().json()).toEqual({ p_organization_id: 'org-1', p_archive: true });
  });

  it('restores an archived organization through the restore modal', async () => {
    const backend = new TestBackend();
    // The first summary waits for the test, to see the modal loading; later ones answer at once.
    let answer: ((response: Response) => void) | null = null;
    backend.on('POST', '/rest/v1/rpc/organization_restore_summary', () =>
      answer === null
        ? new Promise<Response>((resolve) => (answer = resolve))
        : Promise.resolve(json(SUMMARY)),
    );
    backend.on('POST', '/rest/v1/rpc/archive_organization', () => json({ id: 'org-1' }));
    const { user } = open(organization(TEST_USER_ID, null, '2026-11-01T00:00:00Z'), backend);
    expect(await screen.findByText('This organization is archived')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Profile' })).getByRole('textbox', {
        name: 'Name',
      }),
    ).toHaveAttribute('readonly');

    // Declining changes nothing.
    await user.click(screen.getByRole('button', { name: 'Restore organization' }));
    let dialog = await screen.findByRole('dialog', { name: 'Restore Acme?' });
    expect(within(dialog).getByLabelText('Loading what the organization holds')).toBeVisible();
    answer!(json(SUMMARY));
    expect(await within(dialog).findByText('42 links')).toBeInTheDocument();
    expect(within(dialog).getByText('2 admins')).toBeInTheDocument();
    expect(within(dialog).getByText('3 teams')).toBeInTheDocument();
    expect(within(dialog).getByText('1 member')).toBeInTheDocument();
    expect(within(dialog).getByText('Olive Owner (olive@example.com)')).toBeInTheDocument();
    expect(within(dialog).getByText('ursula@example.com')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.requestsTo('POST', '/rest/v1/rpc/archive_organization')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Restore organization' }));
    dialog = await screen.findByRole('dialog', { name: 'Restore Acme?' });
    await user.click(await within(dialog).findByRole('button', { name: 'Restore organization' }));
    expect(await screen.findByText('The organization has been restored.')).toBeInTheDocument();
    const [call] = backend.requestsTo('POST', '/rest/v1/rpc/archive_organization');
    expect(await call!.clone().json()).toEqual({ p_organization_id: 'org-1', p_archive: false });
  });
});
