import { planTitle } from '../../portal/src/pages/PricingPage/planText.ts';
import { formatMoney } from '../../shared/src/plans.ts';
import { expect, test } from '../support/fixtures.ts';
import { serviceClient } from '../support/shell.ts';

interface CatalogPlan {
  name: string;
  slide: number | null;
  plan_prices: { interval: string; amount: number; currency: string; active: boolean }[];
}

/** The public plans as the database holds them, in the order the page shows them. */
async function catalog(): Promise<CatalogPlan[]> {
  const { data, error } = await serviceClient()
    .from('plans')
    .select('name, slide, plan_prices(interval, amount, currency, active)')
    .eq('active', true)
    .eq('hidden', false)
    .order('slide', { ascending: true, nullsFirst: false });
  if (error) throw new Error(error.message);
  return data as CatalogPlan[];
}

test.describe('pricing', () => {
  test('shows the plans and prices from the database, yearly by default', async ({ page }) => {
    const plans = await catalog();
    expect(plans.length).toBeGreaterThan(0);
    await page.goto('/app/pricing');

    await expect(page.getByRole('radio', { name: 'Yearly' })).toBeChecked();
    for (const interval of ['yearly', 'monthly'] as const) {
      if (interval === 'monthly') await page.getByText('Monthly', { exact: true }).click();
      await expect(page.getByRole('radio', { name: planTitle(interval) })).toBeChecked();
      const cards = page.getByRole('article');
      const shown = plans.filter((plan) =>
        plan.plan_prices.some((price) => price.active && price.interval === interval),
      );
      await expect(cards).toHaveCount(shown.length);
      for (const plan of shown) {
        const price = plan.plan_prices.find((p) => p.active && p.interval === interval)!;
        // By name, not position: other suites may add plans whose order ties with the seed's.
        const card = cards.filter({
          has: page.getByRole('heading', { name: planTitle(plan.name), exact: true }),
        });
        await expect(card).toHaveCount(1);
        await expect(card.getByTestId('plan-price')).toHaveText(
          formatMoney(price.amount, price.currency),
        );
        await expect(
          card.getByText(interval === 'yearly' ? 'per year' : 'per month'),
        ).toBeVisible();
      }
    }
    // The spec's Enterprise figures, from minor units.
    await expect(
      page.getByRole('article').filter({ hasText: 'Enterprise' }).getByTestId('plan-price'),
    ).toHaveText('$1,799.00');
  });
});
