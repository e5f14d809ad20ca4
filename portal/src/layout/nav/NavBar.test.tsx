import { isInaccessible, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';
import { renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import {
  pastDueTrialRow,
  signedInWorld,
  subscriptionRow,
  TEST_USER_ID,
  type TestWorld,
} from '../../test/world.ts';

type User = ReturnType<typeof userEvent.setup>;

/** The desktop bar, once the viewer is known (the log-out button or Sign In is there). */
async function desktopNav(ready: 'user' | 'guest' = 'user') {
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  await within(nav).findByRole(ready === 'user' ? 'button' : 'link', {
    name: ready === 'user' ? 'Log out' : 'Sign In',
  });
  return nav;
}

async function openMobileMenu(user: User) {
  await user.click(screen.getByRole('button', { name: 'Open menu' }));
  const drawer = await findLoadedDialog('Menu');
  // The drawer's close icon is named (the theme gives every modal's close button a name).
  expect(within(drawer).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  return within(drawer).getByRole('navigation', { name: 'Mobile' });
}

/** What a screen reader reads for a control: its aria-label, or its text minus hidden parts. */
function accessibleName(element: HTMLElement): string {
  const label = element.getAttribute('aria-label');
  if (label) return label;
  const copy = element.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent?.trim() ?? '';
}

/** The names of a region's links and buttons that can be reached, in document order. */
function controls(region: HTMLElement): string[] {
  return [...region.querySelectorAll<HTMLElement>('a[href], button')]
    .filter((element) => !isInaccessible(element))
    .map(accessibleName);
}

const ORGANIZATION = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  archived_at: null,
  account: { owner_id: TEST_USER_ID },
  organization_users: [],
};

describe('navigation bar: a guest', () => {
  it('offers create, My URLs, Plans, Blog, Features, help, Sign Up and Sign In', async () => {
    const { user } = renderApp({ route: '/app/terms' });
    const nav = await desktopNav('guest');
    expect(controls(nav)).toEqual([
      'Create Short Link',
      'My URLs',
      'Plans',
      'Blog',
      'Features',
      'Help',
      'Sign Up',
      'Sign In',
    ]);
    expect(within(nav).getByRole('link', { name: 'Blog' })).toHaveAttribute(
      'href',
      'https://blog.shortlane.example/',
    );
    expect(screen.getByRole('link', { name: 'Shortlane home' })).toHaveAttribute('href', '/app');

    await user.click(within(nav).getByRole('button', { name: 'Features' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Link Management',
      'Custom Links',
      'Branded Domains',
      'Link Analytics',
      'Free Domains',
      'How It Works',
      'About Us',
    ]);
  });

  it('mirrors that in the mobile menu, with no account items', async () => {
    const { user } = renderApp({ route: '/app/terms' });
    await desktopNav('guest');
    const mobile = await openMobileMenu(user);
    expect(controls(mobile)).toEqual([
      'Create Short Link',
      'My URLs',
      'Plans',
      'Blog',
      'Features',
      'Help',
      'Sign Up',
      'Sign In',
    ]);
  });

  it('opens the side panel from the Create button', async () => {
    const { user } = renderApp({ route: '/app/terms' });
    const nav = await desktopNav('guest');
    await user.click(within(nav).getByRole('button', { name: 'Create Short Link' }));
    const panel = await findLoadedDialog('Create Short Link');
    expect(within(panel).getByRole('heading', { name: 'Shorten a link' })).toBeVisible();
  });
});

describe('navigation bar: a signed-in user without a plan', () => {
  const world = (): TestWorld =>
    signedInWorld({
      unreadNotifications: 2,
      cartQuantity: 1,
      invitations: [
        {
          id: 'inv-1',
          email: 'ADA@example.com',
          source: 'team',
          created_at: '2026-11-20T00:00:00Z',
          team: { name: 'Marketing' },
          organization: { name: 'Acme' },
        },
        {
          id: 'inv-2',
          email: 'someone.else@example.com',
          source: 'team',
          created_at: '2026-11-20T00:00:00Z',
          team: { name: 'Sales' },
          organization: null,
        },
      ],
    });

  it('shows Plans, Blog, Features, the counted icons, their name and log out', async () => {
    renderApp({ route: '/app/terms', world: world() });
    const nav = await desktopNav();
    await within(nav).findByRole('button', { name: 'Notifications, 2 unread' });
    await within(nav).findByRole('button', { name: 'Invitations, 1 pending' });
    await within(nav).findByRole('link', { name: 'Shopping cart, 1 item' });
    expect(controls(nav)).toEqual([
      'Create Short Link',
      'Plans',
      'Blog',
      'Features',
      'Help',
      'Notifications, 2 unread',
      'Invitations, 1 pending',
      'Shopping cart, 1 item',
      'Ada Lovelace',
      'Log out',
    ]);
    expect(within(nav).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/app/settings',
    );
    expect(
      within(nav).getByTestId('unread-dot').querySelector('[class*=indicator]'),
    ).not.toBeNull();
  });

  it('shows a spinner while the unread count loads, and no dot when nothing is unread', async () => {
    const backend = new TestBackend();
    let answer: (() => void) | null = null;
    renderApp({ route: '/app/terms', world: signedInWorld(), backend });
    backend.on(
      'HEAD',
      '/rest/v1/notifications',
      () =>
        new Promise<Response>((resolve) => {
          answer = () => resolve(new Response(null, { headers: { 'content-range': '*/0' } }));
        }),
    );
    const nav = await desktopNav();
    expect(within(nav).getByRole('button', { name: 'Notifications, loading' })).toBeInTheDocument();
    expect(within(nav).getByTestId('notifications-spinner')).toBeInTheDocument();
    await waitFor(() => expect(answer).not.toBeNull());
    answer!();
    const bell = await within(nav).findByRole('button', { name: 'Notifications' });
    expect(within(bell).getByTestId('unread-dot').querySelector('[class*=indicator]')).toBeNull();
  });

  it('lists their invitations with Accept and Reject, and accepting one says so', async () => {
    const backend = new TestBackend();
    const { user } = renderApp({ route: '/app/terms', world: world(), backend });
    backend.on('POST', '/rest/v1/rpc/accept_invitation', () =>
      json({ id: 'inv-1', status: 'accepted' }),
    );
    const nav = await desktopNav();
    await user.click(await within(nav).findByRole('button', { name: 'Invitations, 1 pending' }));
    const popover = await screen.findByRole('dialog');
    expect(within(popover).getByRole('listitem')).toHaveTextContent(
      'Join the team Marketing of Acme',
    );
    expect(within(popover).queryByText(/Sales/)).not.toBeInTheDocument();
    await user.click(within(popover).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('The invitation has been accepted.')).toBeInTheDocument();
    const call = backend.requestsTo('POST', '/rest/v1/rpc/accept_invitation')[0]!;
    expect(await call.json()).toEqual({ p_invitation_id: 'inv-1' });
  });

  it('says "No Invitations" when there are none', async () => {
    const { user } = renderApp({ route: '/app/terms', world: signedInWorld() });
    const nav = await desktopNav();
    await user.click(await within(nav).findByRole('button', { name: 'Invitations' }));
    expect(
      await within(await screen.findByRole('dialog')).findByText('No Invitations'),
    ).toBeVisible();
  });

  it('mobile menu: mirrors the bar and adds Billing and log out', async () => {
    const { user } = renderApp({ route: '/app/terms', world: world() });
    await desktopNav();
    const mobile = await openMobileMenu(user);
    await within(mobile).findByRole('link', { name: 'Notifications (2)' });
    await within(mobile).findByRole('link', { name: 'Shopping cart (1)' });
    expect(controls(mobile)).toEqual([
      'Create Short Link',
      'Plans',
      'Blog',
      'Features',
      'Help',
      'Notifications (2)',
      'Invitations (1)',
      'Shopping cart (1)',
      'Ada Lovelace',
      'Billing',
      'Log out',
    ]);
    expect(within(mobile).getByRole('link', { name: 'Billing' })).toHaveAttribute(
      'href',
      '/app/settings/subscription',
    );
  });
});

describe('navigation bar: a subscriber', () => {
  it('hides Plans, Blog and Features (and My URLs, a guest page)', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    const nav = await desktopNav();
    for (const name of ['My URLs', 'Plans', 'Blog', 'Features']) {
      expect(within(nav).queryByRole(name === 'Features' ? 'button' : 'link', { name })).toBeNull();
    }
    expect(within(nav).getByRole('button', { name: 'Create Short Link' })).toBeVisible();
    const mobile = await openMobileMenu(user);
    expect(within(mobile).queryByRole('link', { name: 'Plans' })).toBeNull();
    expect(within(mobile).queryByRole('button', { name: 'Features' })).toBeNull();
    expect(within(mobile).getByRole('button', { name: 'Log out' })).toBeVisible();
  });
});

describe('navigation bar: a developer', () => {
  it('offers the organizations dropdown with Create Organization (teams allowed) and the Kiosk', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({
        profile: { is_developer: true },
        accountFeatures: ['support_teams'],
        organizations: [ORGANIZATION],
      }),
    });
    const nav = await desktopNav();
    expect(within(nav).getByRole('link', { name: 'Kiosk' })).toHaveAttribute('href', '/app/kiosk');
    await user.click(within(nav).getByRole('button', { name: 'Organizations' }));
    const menu = await screen.findByRole('menu');
    await within(menu).findByRole('menuitem', { name: 'Acme' });
    // The organization's root: the landing rule picks its page.
    expect(within(menu).getByRole('menuitem', { name: 'Acme' })).toHaveAttribute(
      'href',
      '/app/organizations/acme',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Create Organization' })).toHaveAttribute(
      'href',
      '/app/organizations/onboarding',
    );
  });

  it("offers the owner's archived organizations through the restore-organization modal", async () => {
    const backend = new TestBackend();
    backend.on('POST', '/rest/v1/rpc/organization_restore_summary', () =>
      json({ admins: [], admin_count: 1, team_count: 2, member_count: 3, link_count: 4 }),
    );
    const { user } = renderApp({
      route: '/app/terms',
      backend,
      world: signedInWorld({
        profile: { is_developer: true },
        organizations: [
          { ...ORGANIZATION, id: 'org-2', slug: 'old', name: 'Old', archived_at: '2026-01-01' },
          {
            ...ORGANIZATION,
            id: 'org-3',
            slug: 'theirs',
            name: 'Theirs',
            archived_at: '2026-01-01',
            account: { owner_id: 'someone-else' },
            organization_users: [{ user_id: TEST_USER_ID }],
          },
        ],
      }),
    });
    const nav = await desktopNav();
    await user.click(within(nav).getByRole('button', { name: 'Organizations' }));
    const menu = await screen.findByRole('menu');
    await user.click(await within(menu).findByRole('menuitem', { name: 'Old (archived)' }));
    expect(within(menu).queryByRole('menuitem', { name: /Theirs/ })).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Restore Old?' });
    expect(await within(dialog).findByText('4 links')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.requestsTo('POST', '/rest/v1/rpc/archive_organization')).toHaveLength(0);
  });

  it('leaves Create Organization out when teams are not allowed', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ profile: { is_developer: true }, organizations: [ORGANIZATION] }),
    });
    const nav = await desktopNav();
    await user.click(within(nav).getByRole('button', { name: 'Organizations' }));
    const menu = await screen.findByRole('menu');
    await within(menu).findByRole('menuitem', { name: 'Acme' });
    expect(within(menu).queryByRole('menuitem', { name: 'Create Organization' })).toBeNull();
  });

  it('mobile menu: adds the organization items for the organization at hand', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ profile: { is_developer: true }, organizations: [ORGANIZATION] }),
    });
    await desktopNav();
    const mobile = await openMobileMenu(user);
    const link = (name: string) => within(mobile).findByRole('link', { name });
    expect(await link('Organization Settings')).toHaveAttribute(
      'href',
      '/app/organizations/acme/settings/profile',
    );
    expect(await link('Team Settings')).toHaveAttribute(
      'href',
      '/app/organizations/acme/settings/teams',
    );
    expect(await link('Audit Trail')).toHaveAttribute('href', '/app/organizations/acme/audit');
    expect(await link('Helpdesk')).toHaveAttribute('href', '/app/organizations/acme/helpdesk');
    expect(await link('Kiosk')).toHaveAttribute('href', '/app/kiosk');
  });

  it('a user who belongs to no organization sees neither organizations nor the kiosk', async () => {
    renderApp({ route: '/app/terms', world: signedInWorld({ organizations: [] }) });
    const nav = await desktopNav();
    expect(within(nav).queryByRole('button', { name: 'Organizations' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Kiosk' })).toBeNull();
  });
});

describe('navigation bar: organizations for their people (issue 16)', () => {
  it('an organization owner who is not staff sees the organizations dropdown, not the kiosk', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ organizations: [ORGANIZATION] }),
    });
    const nav = await desktopNav();
    expect(within(nav).queryByRole('link', { name: 'Kiosk' })).toBeNull();
    await user.click(within(nav).getByRole('button', { name: 'Organizations' }));
    const menu = await screen.findByRole('menu');
    // The organization's root, where the landing rule picks the page.
    expect(await within(menu).findByRole('menuitem', { name: 'Acme' })).toHaveAttribute(
      'href',
      '/app/organizations/acme',
    );
  });

  it('the mobile menu gives an owner the organization items but keeps Helpdesk for staff', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ organizations: [ORGANIZATION] }),
    });
    await desktopNav();
    const mobile = await openMobileMenu(user);
    expect(
      await within(mobile).findByRole('link', { name: 'Organization Settings' }),
    ).toBeVisible();
    expect(within(mobile).queryByRole('link', { name: 'Helpdesk' })).toBeNull();
  });

  it('a user with the organizations preview feature sees the dropdown before joining one', async () => {
    renderApp({
      route: '/app/terms',
      world: signedInWorld({ profile: { preview_features: ['organizations'] }, organizations: [] }),
    });
    const nav = await desktopNav();
    expect(within(nav).getByRole('button', { name: 'Organizations' })).toBeVisible();
  });
});

describe('navigation bar: impersonation', () => {
  it("offers 'Back To My Account', and log out goes the same way", async () => {
    const backend = new TestBackend();
    const testServices = createTestServices(backend);
    await startSession(
      testServices,
      backend,
      { id: TEST_USER_ID, email: 'ada@example.com' },
      {
        impersonator: '00000000-0000-4000-8000-000000000105',
        impersonation_id: 7,
      },
    );
    const { user, router } = renderApp({
      route: '/app/terms',
      world: signedInWorld(),
      backend,
      testServices,
    });
    const nav = await desktopNav();
    const back = await within(nav).findByRole('link', { name: 'Back To My Account' });
    expect(back).toHaveAttribute('href', '/app/kiosk/user/stop-impersonating');

    const mobile = await openMobileMenu(user);
    expect(within(mobile).getByRole('link', { name: 'Back To My Account' })).toBeVisible();
    await user.click(within(mobile).getByRole('button', { name: 'Log out' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/app/kiosk/user/stop-impersonating'),
    );
  });

  it('is not offered to a user acting as themselves', async () => {
    renderApp({ route: '/app/terms', world: signedInWorld() });
    const nav = await desktopNav();
    expect(within(nav).queryByRole('link', { name: 'Back To My Account' })).toBeNull();
  });
});

describe('navigation bar: a past-due trial user', () => {
  it('shows only the logo, leading to the past-due page, and log out', async () => {
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ subscriptions: [pastDueTrialRow()] }),
    });
    const nav = await desktopNav();
    expect(controls(nav)).toEqual(['Log out']);
    expect(screen.getByRole('link', { name: 'Shortlane home' })).toHaveAttribute(
      'href',
      '/app/subscribe',
    );
    const mobile = await openMobileMenu(user);
    expect(controls(mobile)).toEqual(['Log out']);
  });

  it('logging out leads to the homepage, not back to the past-due page or to login', async () => {
    const { user, router } = renderApp({
      route: '/app/subscribe',
      world: signedInWorld({ subscriptions: [pastDueTrialRow()] }),
    });
    const nav = await desktopNav();
    await user.click(within(nav).getByRole('button', { name: 'Log out' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Shorten, brand and track your links' }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/app');
  });
});
