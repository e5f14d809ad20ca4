import { AuthRetryableFetchError } from '@supabase/supabase-js';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld, subscriptionRow } from '../../test/world.ts';
import { findLoadedDialog } from '../../test/dialogs.ts';

describe('HomePage', () => {
  // The form loads on first render: the first test to show it pays for its cold import.
  it('shows a guest the pitch and the create form', { timeout: 30_000 }, async () => {
    renderApp({ route: '/app' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Shorten, brand and track your links' }),
    ).toBeVisible();
    const form = await screen.findByRole('region', { name: 'Shorten a link' }, { timeout: 25_000 });
    expect(
      await within(form).findByRole('textbox', { name: /Long URL/ }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign up for free' })).toHaveAttribute(
      'href',
      '/app/register',
    );
  });

  it(
    'welcomes a signed-in user without analytics, with the create form and the plans',
    {
      timeout: 30_000,
    },
    async () => {
      renderApp({ route: '/app', world: signedInWorld() });
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' }),
      ).toBeVisible();
      expect(screen.getByText('ada@example.com')).toBeVisible();
      expect(
        await screen.findByRole('region', { name: 'Shorten a link' }, { timeout: 25_000 }),
      ).toBeVisible();
      expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
        'href',
        '/app/pricing',
      );
    },
  );

  it('sends a subscriber to the dashboard', async () => {
    const { router } = renderApp({
      route: '/app',
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(currentUrl(router)).toBe('/app/dashboard');
  });

  it('sends a user whose account has analytics to the dashboard', async () => {
    const { router } = renderApp({
      route: '/app',
      world: signedInWorld({ accountFeatures: ['use_analytics'] }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(currentUrl(router)).toBe('/app/dashboard');
  });

  it('shows flash errors once, in a modal titled Error, one per line', async () => {
    const { services } = renderApp({ route: '/app' });
    act(() => {
      services.flash.push({ type: 'error', message: 'Email link is invalid or has expired' });
      services.flash.push({ type: 'error', message: 'Please try again.' });
    });
    const dialog = await findLoadedDialog(/Error/);
    expect(within(dialog).getByText(/Email link is invalid/).textContent).toBe(
      'Email link is invalid or has expired\nPlease try again.',
    );
    expect(services.flash.getSnapshot()).toEqual([]);
  });

  it('logging out leads to the homepage as a guest', async () => {
    const { router, user } = renderApp({ route: '/app/settings/usage', world: signedInWorld() });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav).findByRole('button', { name: 'Log out' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Shorten, brand and track your links' }),
    ).toBeVisible();
    expect(currentUrl(router)).toBe('/app');
    expect(window.localStorage.getItem('stateStatus')).toBe('false');
  });

  it('stays signed in and says so when logging out fails', async () => {
    const { user } = renderApp({
      route: '/app',
      world: signedInWorld(),
      auth: {
        signOut: async () => new AuthRetryableFetchError('Failed to fetch', 0),
      },
    });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav).findByRole('button', { name: 'Log out' }));
    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' })).toBeVisible();
  });
});
