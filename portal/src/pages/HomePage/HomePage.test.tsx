import { AuthRetryableFetchError } from '@supabase/supabase-js';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/auth.tsx';
import { currentUrl, renderApp } from '../../test/render.tsx';

describe('HomePage', () => {
  it('shows who is signed in, and signing out leads to the login page', async () => {
    const { router, user } = renderApp({
      route: '/app',
      auth: { user: testUser('linus@example.com') },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
    expect(screen.getByText('linus@example.com')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/login?to=%2Fapp');
  });

  it('stays and says so when signing out fails', async () => {
    const { router, user } = renderApp({
      route: '/app',
      auth: {
        user: testUser('linus@example.com'),
        signOut: async () => new AuthRetryableFetchError('Failed to fetch', 0),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not sign out');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeEnabled();
    expect(currentUrl(router)).toBe('/app');
  });
});
