import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { createTestServices } from '../../test/services.ts';
import { signedInWorld, subscriptionRow, type TestWorld } from '../../test/world.ts';
import { Promotions } from './Promotions.tsx';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A sale whose Black Friday phase runs now. */
const SALE_NOW = JSON.stringify({
  preSaleStartsAt: new Date(Date.now() - 7 * DAY).toISOString(),
  blackFridayStartsAt: new Date(Date.now() - DAY).toISOString(),
  postBlackFridayStartsAt: new Date(Date.now() + DAY).toISOString(),
  cyberMondayStartsAt: new Date(Date.now() + 2 * DAY).toISOString(),
  saleEndsAt: new Date(Date.now() + 3 * DAY).toISOString(),
});

const ROOMY = { timeout: 30_000 };

function open(
  world: TestWorld,
  options: { route?: string; sale?: boolean; card?: string | null } = {},
) {
  const backend = new TestBackend();
  backend.table(
    'billing_customers',
    options.card === undefined ? [] : [{ billing_type: 1, pm_last_four: options.card }],
  );
  const testServices = createTestServices(
    backend,
    options.sale ? { VITE_SALE_CALENDAR: SALE_NOW } : {},
  );
  return render(<Promotions />, {
    route: options.route ?? '/app/my-urls',
    world,
    backend,
    testServices,
  });
}

const trialEndingIn = (ms: number) =>
  signedInWorld({
    subscriptions: [
      subscriptionRow({
        billing_status: 'trialing',
        trial_ends_at: new Date(Date.now() + ms).toISOString(),
      }),
    ],
  });

// The ui set-up starts every test with the promotions closed; these tests show them.
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the promotions of the shell', () => {
  it(
    'opens the sale for a free user, keeps its banner once closed, and no other modal on that page',
    ROOMY,
    async () => {
      const { user } = open(signedInWorld(), { sale: true });
      const modal = await screen.findByRole('dialog', { name: 'Black Friday sale' });
      expect(modal).toHaveTextContent('BLACKFRIDAY2024');
      const banner = screen.getByRole('complementary', { name: 'Sale' });
      expect(screen.getByRole('link', { name: 'Get the deal' })).toHaveAttribute(
        'href',
        '/app/pricing?coupon=BLACKFRIDAY2024',
      );
      await user.click(screen.getByRole('button', { name: 'Maybe later' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(sessionStorage.getItem('saleModalClosed')).toBe('true');
      expect(banner).toBeVisible();
      // The free-trial promotion (next in line) waits for another page.
      expect(screen.queryByRole('dialog', { name: 'Try a paid plan free' })).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Hide the sale' }));
      await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Sale' })).toBeNull());
      expect(localStorage.getItem('salePromotionClosed')).toBe('true');
    },
  );

  it(
    'shows the banner but no modal on the pricing page, and nothing to subscribers',
    ROOMY,
    async () => {
      open(signedInWorld(), { sale: true, route: '/app/pricing' });
      expect(await screen.findByRole('complementary', { name: 'Sale' })).toBeVisible();
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  );

  it('offers a subscriber no sale and no trial', ROOMY, async () => {
    const { backend } = open(signedInWorld({ subscriptions: [subscriptionRow()] }), {
      sale: true,
    });
    await waitFor(() =>
      expect(backend.requestsTo('GET', '/rest/v1/subscriptions')).not.toEqual([]),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('complementary', { name: 'Sale' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('outside the sale, offers the free trial until closed, for 24 hours', ROOMY, async () => {
    const { user } = open(signedInWorld());
    const modal = await screen.findByRole('dialog', { name: 'Try a paid plan free' });
    expect(modal).toHaveTextContent('free for 7 days');
    expect(screen.queryByRole('complementary', { name: 'Sale' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const closedAt = Date.parse(localStorage.getItem('trialPromotionClosedAt') ?? '');
    expect(Date.now() - closedAt).toBeLessThan(60_000);
  });

  it('does not offer the trial again within 24 hours of closing it', ROOMY, async () => {
    localStorage.setItem('trialPromotionClosedAt', new Date(Date.now() - 23 * HOUR).toISOString());
    const { backend } = open(signedInWorld());
    await waitFor(() => expect(backend.requestsTo('GET', '/rest/v1/plans')).not.toEqual([]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reminds a trial without a card hard within a day, with a way to add one', ROOMY, async () => {
    const { user } = open(trialEndingIn(20 * HOUR));
    const modal = await screen.findByRole('dialog', { name: 'Your trial ends within a day' });
    expect(modal).toHaveTextContent('less than a day left');
    expect(screen.getByRole('link', { name: 'Add a card' })).toHaveAttribute(
      'href',
      '/app/settings/payment-method',
    );
    await user.click(screen.getByRole('button', { name: 'Remind me later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The hard reminder's closure lasts the session only.
    expect(sessionStorage.getItem('trialReminderClosedAt')).not.toBeNull();
    expect(localStorage.getItem('trialReminderClosedAt') ?? '').toBe('');
  });

  it('reminds softly with 2 to 7 days left, and not at all with a card', ROOMY, async () => {
    const soft = open(trialEndingIn(3 * DAY - HOUR));
    const modal = await screen.findByRole('dialog', { name: 'Your trial ends soon' });
    expect(modal).toHaveTextContent('3 days left');
    soft.unmount();

    const { backend } = open(trialEndingIn(20 * HOUR), { card: '4242' });
    await waitFor(() =>
      expect(backend.requestsTo('GET', '/rest/v1/billing_customers')).not.toEqual([]),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
