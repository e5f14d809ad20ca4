import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { json, postgrestError, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';
import { onboardingStorageKey } from './onboarding.ts';
import OnboardingPage from './OnboardingPage.tsx';

const organization = (ownerId: string, permissions: string[] | null = null) => ({
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  account_id: 'acc-org',
  archived_at: null,
  account: { owner_id: ownerId },
  organization_users:
    permissions === null ? [] : [{ user_id: TEST_USER_ID, role: { permissions } }],
  teams: [],
});

function Where() {
  const location = useLocation();
  return <output aria-label="Address">{location.pathname + location.search}</output>;
}

/**
 * Answers each count query (HEAD) with how many rows the organization has in that table. Called
 * after render, so it wins over the world's tables; the counts are read only once the
 * organization has loaded.
 */
function withCounts(backend: TestBackend, counts: Record<string, number>) {
  for (const table of ['domains', 'organization_users', 'invitations', 'teams', 'team_members']) {
    backend.table(
      table,
      Array.from({ length: counts[table] ?? 0 }, () => ({})),
    );
  }
  return backend;
}

function open(
  route: string,
  options: { org?: ReturnType<typeof organization>; features?: string[]; backend?: TestBackend },
) {
  return render(
    <Routes>
      <Route
        path="/app/organizations/onboarding"
        element={
          <>
            <OnboardingPage />
            <Where />
          </>
        }
      />
    </Routes>,
    {
      world: signedInWorld({
        organizations: options.org ? [options.org] : [],
        accountFeatures: options.features ?? [],
      }),
      backend: options.backend ?? new TestBackend(),
      route,
    },
  );
}

afterEach(() => window.localStorage.clear());

const currentStep = () => screen.findByRole('region', { name: /./ });

describe('OnboardingPage', { timeout: 30_000 }, () => {
  it('creates an organization with a slug from its name, then walks its steps', async () => {
    const backend = new TestBackend();
    let slugTaken = true;
    backend.on('POST', '/rest/v1/rpc/create_organization', () => {
      if (slugTaken) {
        slugTaken = false;
        return postgrestError(422, {
          message: 'slug_taken',
          details: 'The slug has already been taken.',
          hint: 'slug',
        });
      }
      return json('org-1');
    });
    const { user } = open('/app/organizations/onboarding', {
      features: ['support_teams'],
      backend,
    });
    const form = await screen.findByRole('region', { name: 'Create an organization' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Acme Sales');
    expect(within(form).getByRole('textbox', { name: /^Slug/ })).toHaveValue('acme-sales');
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    expect(await within(form).findByText('The slug has already been taken.')).toBeVisible();
    const slug = within(form).getByRole('textbox', { name: /^Slug/ });
    await user.clear(slug);
    await user.type(slug, 'acme');
    await user.click(within(form).getByRole('button', { name: 'Create organization' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Address' })).toHaveTextContent('?org=acme'),
    );
    const calls = backend.requestsTo('POST', '/rest/v1/rpc/create_organization');
    expect(await calls[1]!.clone().json()).toEqual({ p_name: 'Acme Sales', p_slug: 'acme' });
  });

  it('tells a user whose plan has no teams that they cannot create one', async () => {
    open('/app/organizations/onboarding', {});
    expect(
      await screen.findByText("Your plan doesn't allow you to create organizations."),
    ).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Create an organization' })).toBeNull();
  });

  it('walks the owner through every step, marking them done in local storage', async () => {
    const backend = new TestBackend();
    const { user } = open('/app/organizations/onboarding?org=acme', {
      org: organization(TEST_USER_ID),
      backend,
    });
    withCounts(backend, {});
    let step = await currentStep();
    expect(step).toHaveAccessibleName('Add domains');
    expect(within(step).getByText('Step 1 of 5')).toBeVisible();
    expect(within(step).getByRole('link', { name: 'Add domains' })).toHaveAttribute(
      'href',
      '/app/organizations/acme/settings/profile/domains',
    );
    await user.click(within(step).getByRole('button', { name: 'Skip this step' }));
    step = await currentStep();
    expect(step).toHaveAccessibleName('Invite users');
    expect(JSON.parse(window.localStorage.getItem(onboardingStorageKey('org-1'))!)).toEqual([
      'domains',
    ]);
    await user.click(within(step).getByRole('button', { name: 'Skip this step' }));
    expect(await currentStep()).toHaveAccessibleName('Create a team');
  });

  it('skips the steps whose data exists and those marked done', async () => {
    window.localStorage.setItem(onboardingStorageKey('org-1'), '["team"]');
    const backend = new TestBackend();
    open('/app/organizations/onboarding?org=acme', { org: organization(TEST_USER_ID), backend });
    withCounts(backend, { domains: 2, invitations: 1 });
    const step = await currentStep();
    expect(step).toHaveAccessibleName('Add members to a team');
    expect(within(step).getByText('Step 4 of 5')).toBeVisible();
    const steps = screen.getByRole('list', { name: 'Steps' });
    expect(within(steps).getAllByText('Already there')).toHaveLength(2);
    expect(within(steps).getByText('Marked done')).toBeVisible();
  });

  it('leaves domains and invitations to the owner', async () => {
    const backend = new TestBackend();
    open('/app/organizations/onboarding?org=acme', {
      org: organization('someone-else', ['profile', 'domains', 'users', 'teams', 'members']),
      backend,
    });
    withCounts(backend, { domains: 3, organization_users: 2 });
    expect(await currentStep()).toHaveAccessibleName('Create a team');
    expect(screen.getAllByText('Owner only')).toHaveLength(2);
  });

  it('needs profile, domains, users, teams and members', async () => {
    open('/app/organizations/onboarding?org=acme', {
      org: organization('someone-else', ['profile', 'domains', 'users', 'teams']),
    });
    expect(
      await screen.findByText(/needs the Profile, Domains, Users, Teams and Members permissions/),
    ).toBeVisible();
  });
});
