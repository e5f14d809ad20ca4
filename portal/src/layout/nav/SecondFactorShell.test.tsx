import { isInaccessible, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { scriptTotpVerify, startPasswordOnlySession } from '../../features/two-factor/testing.ts';
import { TestBackend } from '../../test/backend.ts';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { findLoadedDialog } from '../../test/dialogs.ts';
import { createTestServices } from '../../test/services.ts';
import { signedInWorld } from '../../test/world.ts';

/** What the account's own data is read from; the public tables (plans, domains…) are not. */
const ACCOUNT_READS = [
  '/rest/v1/profiles',
  '/rest/v1/accounts',
  '/rest/v1/subscriptions',
  '/rest/v1/teams',
  '/rest/v1/team_members',
  '/rest/v1/organizations',
  '/rest/v1/notifications',
  '/rest/v1/invitations',
  '/rest/v1/cart_items',
  '/rest/v1/surveys',
  '/rest/v1/rpc/account_limits',
];

function accountReads(backend: TestBackend): string[] {
  return backend.requests
    .map((request) => new URL(request.url).pathname)
    .filter((path) => ACCOUNT_READS.includes(path));
}

/** The names of a region's reachable links and buttons (hidden decorations left out). */
function controls(region: HTMLElement): string[] {
  return [...region.querySelectorAll<HTMLElement>('a[href], button')]
    .filter((element) => !isInaccessible(element))
    .map((element) => {
      const label = element.getAttribute('aria-label');
      if (label) return label;
      const copy = element.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
      return copy.textContent?.trim() ?? '';
    });
}

/** A password-only session of a user with a verified factor, on the code page. */
async function waitingForTheCode() {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startPasswordOnlySession(testServices, backend);
  const world = signedInWorld({ unreadNotifications: 2 });
  const rendered = renderApp({
    route: '/app/login/2FA/verify?to=%2Fapp%2Fnotifications',
    backend,
    testServices,
    world,
  });
  await screen.findByRole('form', { name: 'Two-factor verification' });
  return { ...rendered, backend };
}

describe('the shell before the second factor', { timeout: 20_000 }, () => {
  it('shows a guest’s public links and log out, and reads nothing of the account', async () => {
    const { backend } = await waitingForTheCode();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('button', { name: 'Log out' });
    expect(controls(nav)).toEqual(['Plans', 'Blog', 'Features', 'Help', 'Log out']);
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
    expect(accountReads(backend)).toEqual([]);
  });

  it('the mobile menu holds the same, without Billing, notifications or invitations', async () => {
    const { user, backend } = await waitingForTheCode();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    // The menu's content loads on first use: its frame opens with a loader first.
    const drawer = await findLoadedDialog('Menu');
    const menu = await within(drawer).findByRole('navigation', { name: 'Mobile' });
    await within(menu).findByRole('button', { name: 'Log out' });
    expect(controls(menu)).toEqual(['Plans', 'Blog', 'Features', 'Help', 'Log out']);
    expect(accountReads(backend)).toEqual([]);
  });

  it('shows the account once the code is accepted', async () => {
    const { user, backend, router } = await waitingForTheCode();
    scriptTotpVerify(backend, (code) => code === '246810');
    await user.type(screen.getByLabelText('Authentication code'), '246810');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/notifications'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByText('Ada Lovelace')).toBeVisible();
    expect(within(nav).getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();
    expect(accountReads(backend)).toContain('/rest/v1/profiles');
  });
});
