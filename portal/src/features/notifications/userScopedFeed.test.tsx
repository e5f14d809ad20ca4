import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { tableRows, TestBackend, type Responder } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

const FIRST_USER = { id: '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3', email: 'first@example.com' };

describe("one user's notifications never show for the next", () => {
  it('after a logout and a login as someone else, the bell waits for their own feed', async () => {
    const backend = new TestBackend();
    let signedIn: 'first' | 'second' = 'first';
    const heldForSecond: (() => void)[] = [];
    const { user } = renderApp({
      route: '/app/terms',
      world: signedInWorld({ user: FIRST_USER, unreadNotifications: 1 }),
      backend,
    });
    const firstUsersRows = [
      {
        id: 'n-1',
        title: 'For the first user',
        body: null,
        read_at: null,
        created_at: '2026-11-21T00:00:00Z',
      },
    ];
    // The second user's feed answers only when the test says so: until then, the bell must not
    // fall back on anything cached for the first.
    const feed: Responder = (request, url) =>
      signedIn === 'first'
        ? tableRows(firstUsersRows)(request, url)
        : new Promise<Response>((resolve) => {
            heldForSecond.push(() => resolve(tableRows([])(request, url)));
          });
    backend.on('GET', '/rest/v1/notifications', feed).on('HEAD', '/rest/v1/notifications', feed);

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('button', { name: 'Notifications, 1 unread' });

    signedIn = 'second';
    await user.click(within(nav).getByRole('button', { name: 'Log out' }));
    await user.click(await within(nav).findByRole('link', { name: 'Sign In' }));
    await user.type(await screen.findByLabelText('E-mail'), 'second@example.com');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'password123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(
      await within(nav).findByRole('button', { name: 'Notifications, loading' }),
    ).toBeVisible();
    // The list and the unread count.
    await waitFor(() => expect(heldForSecond).toHaveLength(2));
    heldForSecond.forEach((answer) => answer());
    const bell = await within(nav).findByRole('button', { name: 'Notifications' });
    await user.click(bell);
    const dropdown = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dropdown).getByText('No notifications yet.')).toBeVisible();
    expect(within(dropdown).queryByText('For the first user')).toBeNull();
  }, 20_000);
});
