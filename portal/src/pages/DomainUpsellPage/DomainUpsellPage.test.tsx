import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/render.tsx';
import { signedInWorld, subscriptionRow } from '../../test/world.ts';

const SLOW = { timeout: 10_000 };

describe('domain-upsell', { timeout: 30_000 }, () => {
  it('says why, and links to the branded domains and to buying one', async () => {
    renderApp({ route: '/app/domain-upsell', world: signedInWorld() });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Brand your links' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your branded domains' })).toHaveAttribute(
      'href',
      '/app/settings/branded-domains',
    );
    expect(screen.getByRole('link', { name: 'Buy a domain' })).toHaveAttribute(
      'href',
      '/app/purchase/domain',
    );
  });

  it('"Add Domain" keeps its gates: a user without a subscription goes to billing', async () => {
    const { router, user } = renderApp({ route: '/app/domain-upsell', world: signedInWorld() });
    await user.click(await screen.findByRole('button', { name: 'Add Domain' }, SLOW));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/subscription'));
  });

  it('"Add Domain" lets a subscriber add one', async () => {
    const { router, user } = renderApp({
      route: '/app/domain-upsell',
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Domain' }, SLOW));
    await waitFor(() => expect(currentUrl(router)).toBe('/app/settings/branded-domains/create'));
  });
});
