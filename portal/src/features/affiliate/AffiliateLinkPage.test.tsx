import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import type { Profile } from '../../data/profile-query.ts';
import { signedInWorld } from '../../test/world.ts';
import AffiliateLinkPage from './AffiliateLinkPage.tsx';

const ROOMY = { timeout: 30_000 };

function backendFor(calls: unknown[]) {
  const backend = new TestBackend();
  backend.on('POST', '/rest/v1/rpc/set_my_affiliate_links', async (request) => {
    const body = (await request.json()) as { p_allow: boolean };
    calls.push(body);
    return json(body.p_allow);
  });
  return backend;
}

/** A signed-in person whose profile row carries these status flags. */
function personWithStatus(status: number) {
  // The world answers the profile row the shell reads; the page reads its status column.
  const profile: Partial<Profile> & { status: number } = { status };
  return signedInWorld({ profile });
}

describe('AffiliateLinkPage', () => {
  it(
    'shows a person with status flag 4 that their links never become affiliate links',
    ROOMY,
    async () => {
      const calls: unknown[] = [];
      const { user } = render(<AffiliateLinkPage />, {
        route: '/app/affiliate-link',
        backend: backendFor(calls),
        world: personWithStatus(8 | 4),
      });
      const toggle = await screen.findByRole('switch', { name: /Allow affiliate links/ });
      expect(toggle).not.toBeChecked();
      expect(screen.getByText('None of your links open as affiliate links.')).toBeVisible();

      await user.click(toggle);
      expect(await screen.findByRole('status')).toHaveTextContent(
        'Your links may open as affiliate links again.',
      );
      expect(calls).toEqual([{ p_allow: true }]);
      expect(toggle).toBeChecked();
    },
  );

  it('lets a person without the flag refuse them', ROOMY, async () => {
    const calls: unknown[] = [];
    const { user } = render(<AffiliateLinkPage />, {
      route: '/app/affiliate-link',
      backend: backendFor(calls),
      world: personWithStatus(0),
    });
    const toggle = await screen.findByRole('switch', { name: /Allow affiliate links/ });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your links will no longer open as affiliate links.',
    );
    expect(calls).toEqual([{ p_allow: false }]);
  });

  it('sends a guest to log in and back', ROOMY, async () => {
    render(<AffiliateLinkPage />, { route: '/app/affiliate-link' });
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      '/app/login?to=%2Fapp%2Faffiliate-link',
    );
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
