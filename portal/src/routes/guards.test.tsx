import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testUser } from '../test/auth.tsx';
import { currentUrl, renderApp } from '../test/render.tsx';

const signedIn = { user: testUser('grace@example.com') };

describe('login guard', () => {
  it('sends a guest from a protected page to login, remembering the page', async () => {
    const { router } = renderApp({ route: '/app' });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/login?to=%2Fapp');
  });

  it('keeps the query string of the page the guest wanted', async () => {
    const { router } = renderApp({ route: '/app?coupon=BF24' });
    await screen.findByRole('heading', { name: 'Log in' });
    expect(currentUrl(router)).toBe('/app/login?to=%2Fapp%3Fcoupon%3DBF24');
  });

  it('lets a signed-in user in', async () => {
    const { router } = renderApp({ route: '/app', auth: signedIn });
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app');
  });

  it('decides nothing while the session is still loading', async () => {
    const { router } = renderApp({ route: '/app', auth: { loading: true } });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
    expect(currentUrl(router)).toBe('/app');
  });

  it('brings the guest back to the remembered page after logging in', async () => {
    const { router, user } = renderApp({ route: '/app?coupon=BF24' });
    await user.type(await screen.findByLabelText('E-mail'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app?coupon=BF24');
  });
});

describe('guest-only guard', () => {
  it('shows the login page to a guest', async () => {
    const { router } = renderApp({ route: '/app/login' });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app/login');
  });

  it('sends a signed-in user to the homepage', async () => {
    const { router } = renderApp({ route: '/app/login', auth: signedIn });
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/app');
  });

  it('sends a signed-in user on to a safe "to" target', async () => {
    const { router } = renderApp({ route: '/app/login?to=%2Fapp%3Ftab%3Dlinks', auth: signedIn });
    await screen.findByText('grace@example.com');
    expect(currentUrl(router)).toBe('/app?tab=links');
  });

  it.each(['https%3A%2F%2Fevil.example', '%2F%2Fevil.example%2Fapp'])(
    'ignores an unsafe "to" target (%s) and goes to the homepage',
    async (to) => {
      const { router } = renderApp({ route: `/app/login?to=${to}`, auth: signedIn });
      await screen.findByText('grace@example.com');
      expect(currentUrl(router)).toBe('/app');
    },
  );
});

describe('unknown paths', () => {
  it.each(['/', '/nowhere', '/app/no-such-page'])('send %s to the homepage', async (route) => {
    const { router } = renderApp({ route, auth: signedIn });
    await screen.findByText('grace@example.com');
    expect(currentUrl(router)).toBe('/app');
  });
});
