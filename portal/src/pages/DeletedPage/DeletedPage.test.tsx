import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

describe('DeletedPage', () => {
  it('tells a guest the account is gone, with the ways on', async () => {
    const { user, router } = renderApp({ route: '/app/deleted' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your account has been deleted' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Your account has been deleted · Shortlane');
    expect(screen.getByRole('link', { name: 'Sign up again' })).toHaveAttribute(
      'href',
      '/app/register',
    );
    await user.click(screen.getByRole('link', { name: 'Back to the homepage' }));
    expect(currentUrl(router)).toBe('/app');
    // The first render loads the route modules (the homepage's among them): slow on a busy machine.
  }, 15_000);

  it('is for guests: a signed-in user goes to the homepage', async () => {
    const { router } = renderApp({ route: '/app/deleted', world: signedInWorld() });
    await waitFor(() => expect(currentUrl(router)).toBe('/app'));
  });
});
