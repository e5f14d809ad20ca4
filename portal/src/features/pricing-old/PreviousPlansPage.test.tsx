import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { render } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';
import PreviousPlansPage from './PreviousPlansPage.tsx';

const ROOMY = { timeout: 30_000 };

const price = (plan: { name: string; active: boolean; hidden: boolean }, active = true) => ({
  price: {
    id: 'price-1',
    interval: 'monthly',
    amount: 999,
    currency: 'USD',
    features: ['analytics'],
    options: { max_aliases_per_month: 500 },
    active,
    plan,
  },
});

function open(rows: unknown[]) {
  const backend = new TestBackend();
  const rendered = render(<PreviousPlansPage />, {
    route: '/app/pricing/old',
    backend,
    world: signedInWorld(),
  });
  // After the world's own answers, so this one wins.
  backend.on('GET', '/rest/v1/subscriptions', (request) =>
    new URL(request.url).searchParams.get('select')?.includes('plan_prices')
      ? json(rows)
      : json([]),
  );
  return rendered;
}

describe('PreviousPlansPage', () => {
  it(
    'tells a person on a retired plan that they keep it, and what it includes',
    ROOMY,
    async () => {
      open([price({ name: 'pro-2023', active: false, hidden: true })]);
      expect(
        await screen.findByRole('heading', { name: /Pro 2023, \$9\.99 per month/ }),
      ).toBeVisible();
      expect(screen.getByText(/We no longer offer this plan\. You keep it/)).toBeVisible();
      expect(screen.getByRole('list', { name: 'What Pro 2023 includes' })).toHaveTextContent(
        '500 new links a month',
      );
    },
  );

  it('says a current plan is not affected, and a free user has none', ROOMY, async () => {
    const current = open([price({ name: 'pro', active: true, hidden: false })]);
    expect(await screen.findByText(/Your plan is one of our current plans/)).toBeVisible();
    current.unmount();
    open([]);
    expect(await screen.findByText(/You are not on a paid plan/)).toBeVisible();
  });

  it('counts a price no longer sold as retired even on a current plan', ROOMY, async () => {
    open([price({ name: 'pro', active: true, hidden: false }, false)]);
    expect(await screen.findByText(/We no longer offer this plan/)).toBeVisible();
  });
});
