import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../../test/render.tsx';
import { signedInWorld, subscriptionRow } from '../../test/world.ts';
import { AdSlot } from './AdSlot.tsx';

const ROOMY = { timeout: 30_000 };
const ad = () => screen.queryByRole('complementary', { name: 'Advertisement' });

afterEach(() => {
  localStorage.clear();
  document.cookie = 'tinyStrictPrivate=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('the ad slot', () => {
  it('shows a house ad for upgrades to a free user who accepted cookies', ROOMY, async () => {
    localStorage.setItem('cookiesAccepted', 'true');
    render(<AdSlot slot="test" />, { route: '/app', world: signedInWorld() });
    const slot = await screen.findByRole('complementary', { name: 'Advertisement' });
    expect(slot.querySelector('[data-ad-provider="house"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/pricing');
  });

  it('waits for consent, and stays away after the privacy opt-out', ROOMY, async () => {
    const first = render(<AdSlot slot="test" />, { route: '/app', world: signedInWorld() });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ad()).toBeNull();
    // Accepting the cookie notice (here from another tab) is the consent that lets it show.
    localStorage.setItem('cookiesAccepted', 'true');
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: 'cookiesAccepted',
          newValue: 'true',
          storageArea: localStorage,
        }),
      );
    });
    expect(await screen.findByRole('complementary', { name: 'Advertisement' })).toBeVisible();
    first.unmount();

    document.cookie = 'tinyStrictPrivate=true; path=/';
    render(<AdSlot slot="test" />, { route: '/app', world: signedInWorld() });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ad()).toBeNull();
  });

  it('never shows one to a subscriber', ROOMY, async () => {
    localStorage.setItem('cookiesAccepted', 'true');
    render(<AdSlot slot="test" />, {
      route: '/app',
      world: signedInWorld({ subscriptions: [subscriptionRow()] }),
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ad()).toBeNull();
  });
});
