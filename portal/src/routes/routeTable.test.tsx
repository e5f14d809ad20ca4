import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../test/render.tsx';
import { signedInWorld } from '../test/world.ts';
import { paths, type RouteName } from './paths.ts';
import { EXTERNAL_REDIRECTS, PAGE_ROUTES, REDIRECTS } from './routeTable.tsx';

describe('the route table', () => {
  it('serves every named route exactly once: a page, a redirect or an external redirect', () => {
    const served: RouteName[] = [
      ...PAGE_ROUTES.map((route) => route.name),
      ...REDIRECTS.map((redirect) => redirect.from),
      ...EXTERNAL_REDIRECTS.map((redirect) => redirect.from),
    ];
    expect([...served].sort()).toEqual(Object.keys(paths).sort());
  });

  it('says what every not-yet-built page will be', () => {
    for (const route of PAGE_ROUTES) {
      if (route.screen.kind !== 'placeholder') continue;
      expect(route.screen.title.trim(), route.name).not.toBe('');
      expect(route.screen.summary.length, route.name).toBeGreaterThan(20);
    }
  });

  it('renders a not-yet-built page with its title, what will be there and the way home', async () => {
    const { user, router } = renderApp({ route: '/app/purchase-domains', world: signedInWorld() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Buy a domain' })).toBeVisible();
    expect(screen.getByText(/Search for a domain name and buy it/)).toBeVisible();
    expect(document.title).toBe('Buy a domain · Shortlane');
    await user.click(screen.getByRole('link', { name: 'Back to the homepage' }));
    expect(currentUrl(router)).toBe('/app');
  });

  it('serves the routes outside the /app prefix', async () => {
    const { router } = renderApp({ route: '/preview/deprecated/abc' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Link preview' })).toBeVisible();
    expect(currentUrl(router)).toBe('/preview/deprecated/abc');
  });
});
