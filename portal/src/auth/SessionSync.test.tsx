import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth } from './AuthContext.ts';
import { currentUrl, render, renderApp } from '../test/render.tsx';
import { signedInWorld } from '../test/world.ts';
import { SessionSync } from './SessionSync.tsx';

/** What the browser fires in this tab when another tab writes the key. */
function otherTabWrites(newValue: string) {
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: 'stateStatus',
        newValue,
        storageArea: window.localStorage,
      }),
    );
  });
}

function SignInButton() {
  const auth = useAuth();
  return (
    <button onClick={() => void auth.signIn({ email: 'ada@example.com', password: 'secret1' })}>
      Sign in
    </button>
  );
}

describe('SessionSync', () => {
  it('logs this tab out when another tab logs out: session, modals, and on to the homepage', async () => {
    const { router, services } = renderApp({ route: '/app/terms', world: signedInWorld() });
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeInTheDocument();
    act(() => services.dialogs.showError({ message: 'A modal left open' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();

    otherTabWrites('false');

    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    // The first render of the file loads the shell's route modules: slow on a busy machine.
  }, 20_000);

  it('reloads this tab at the homepage when another tab logs in', async () => {
    const { router, reload } = renderApp({ route: '/app/pricing' });
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeInTheDocument();

    otherTabWrites('true');

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(currentUrl(router)).toBe('/app');
  });

  it('ignores other keys', async () => {
    const { router } = renderApp({ route: '/app/terms', world: signedInWorld() });
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: 'cookiesAccepted',
          newValue: 'false',
          storageArea: window.localStorage,
        }),
      );
    });
    expect(currentUrl(router)).toBe('/app/terms');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('loads invitations, notifications and the cart when a user logs in, not before', async () => {
    const { user, backend } = render(
      <>
        <SessionSync />
        <SignInButton />
      </>,
      { world: signedInWorld({ invitations: [] }), startAsGuest: true },
    );
    const loaded = () => ({
      notifications: backend.requestsTo('HEAD', '/rest/v1/notifications').length,
      cart: backend.requestsTo('HEAD', '/rest/v1/cart_items').length,
      invitations: backend.requestsTo('GET', '/rest/v1/invitations').length,
    });
    expect(loaded()).toEqual({ notifications: 0, cart: 0, invitations: 0 });

    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(loaded()).toEqual({ notifications: 1, cart: 1, invitations: 1 }));
  });
});
