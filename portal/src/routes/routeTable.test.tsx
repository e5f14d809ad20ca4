import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../test/render.tsx';
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

  it('serves the routes outside the /app prefix', async () => {
    const { router } = renderApp({ route: '/preview/deprecated/abc' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Link preview' })).toBeVisible();
    expect(currentUrl(router)).toBe('/preview/deprecated/abc');
  });
});
