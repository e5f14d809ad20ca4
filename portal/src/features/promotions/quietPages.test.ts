import { describe, expect, it } from 'vitest';
import { isQuietPage } from './quietPages.ts';

describe('pages without promotion modals', () => {
  it('keeps pricing, sale, settings, cart and past-due pages quiet', () => {
    for (const path of [
      '/app/pricing',
      '/app/pricing/old',
      '/app/black-friday-2024',
      '/app/settings/payment-method',
      '/app/shopping-cart/success',
      '/app/subscribe',
    ])
      expect(isQuietPage(path), path).toBe(true);
  });

  it('lets the homepage, dashboard and other pages show them', () => {
    for (const path of ['/app', '/app/dashboard', '/app/my-urls', '/app/settingsx'])
      expect(isQuietPage(path), path).toBe(false);
  });
});
