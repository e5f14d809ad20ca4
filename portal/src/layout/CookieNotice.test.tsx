import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../test/render.tsx';

describe('cookie notice', () => {
  it('asks until accepted, and keeps the answer in local storage', async () => {
    const first = renderApp({ route: '/app/terms' });
    const notice = await screen.findByRole('region', { name: 'Cookie notice' });
    expect(within(notice).getByText(/We use cookies/)).toBeVisible();

    await first.user.click(within(notice).getByRole('button', { name: 'Accept' }));
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.cookiesAccepted)).toBe('true');
    first.unmount();

    renderApp({ route: '/app/terms' });
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });

  it('Learn More leads to the cookie policy', async () => {
    const { user, router } = renderApp({ route: '/app/terms' });
    const notice = await screen.findByRole('region', { name: 'Cookie notice' });
    await user.click(within(notice).getByRole('link', { name: 'Learn More' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
    expect(currentUrl(router)).toBe('/app/cookies-policy');
    // Reading the policy is not accepting it.
    expect(screen.getByRole('region', { name: 'Cookie notice' })).toBeVisible();
  });
});
