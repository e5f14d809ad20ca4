import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_POLL_MS, CREATE_FAILED_MESSAGE } from '../../data/billing.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { signedInWorld, subscriptionRow, TEST_USER_ID } from '../../test/world.ts';

const SLOW = { timeout: 10_000 };
const ROOMY = { timeout: 30_000 };

async function open(route: string, world = signedInWorld()) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
  renderApp({ route, world, backend, testServices });
  return backend;
}

describe('settings/subscription/success', () => {
  it(
    'shows its progress until the webhook has recorded the plan, then the plan',
    ROOMY,
    async () => {
      const backend = await open('/app/settings/subscription/success?session_id=cs_test_abc');
      let asked = 0;
      backend.on('GET', '/functions/v1/billing/checkout/cs_test_abc', () => {
        asked++;
        return json(
          asked < 3
            ? { status: 'complete', subscription: null }
            : {
                status: 'complete',
                subscription: {
                  name: 'pro',
                  interval: 'yearly',
                  billing_status: 'active',
                  ends_at: null,
                  trial_ends_at: null,
                  period_ends_at: '2027-11-26T00:00:00Z',
                },
              },
        );
      });
      expect(
        await screen.findByText(/Waiting for the payment provider/, {}, SLOW),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('progressbar', { name: 'Confirmation progress' }),
      ).toBeInTheDocument();
      expect(await screen.findByTestId('subscribed-plan', {}, SLOW)).toHaveTextContent(
        'You are now on Pro (yearly).',
      );
      // Asked until the plan came (then once more by the state refresh), and no more after.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const settled = asked;
      expect(settled).toBeGreaterThanOrEqual(3);
      await new Promise((resolve) => setTimeout(resolve, CHECKOUT_POLL_MS + 200));
      expect(asked).toBe(settled);
    },
  );

  it('says so when the checkout is not the user’s', ROOMY, async () => {
    const backend = await open('/app/settings/subscription/success?session_id=cs_test_other');
    backend.on('GET', '/functions/v1/billing/checkout/cs_test_other', () =>
      json({ code: 'checkout_not_found', message: 'Unknown checkout.' }, { status: 404 }),
    );
    expect(
      await screen.findByText('We could not find this checkout', {}, SLOW),
    ).toBeInTheDocument();
  });
});

describe('settings/subscription', () => {
  it('shows the free plan with a way to the pricing page', ROOMY, async () => {
    await open('/app/settings/subscription');
    expect(await screen.findByTestId('current-plan', {}, SLOW)).toHaveTextContent('Free');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/pricing');
  });

  it(
    'shows a card subscription on trial with its renewal, trial days and cancel',
    ROOMY,
    async () => {
      const now = Date.now();
      const trialEnd = new Date(now + 5 * 86_400_000 - 60_000).toISOString();
      await open(
        '/app/settings/subscription',
        signedInWorld({
          subscriptions: [
            {
              ...subscriptionRow({ name: 'pro', trial_ends_at: trialEnd }),
              amount: 12900,
              billing_type: 1,
              period_ends_at: trialEnd,
            } as ReturnType<typeof subscriptionRow>,
          ],
        }),
      );
      expect(await screen.findByTestId('current-plan', {}, SLOW)).toHaveTextContent('Pro');
      expect(screen.getByTestId('trial-days-left')).toHaveTextContent('5 days left in your trial.');
      expect(screen.getByTestId('renewal')).toHaveTextContent(/^Renews on /);
      expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeEnabled();
    },
  );
});

describe('pricing: Choose a plan', () => {
  it(
    'asks the billing function for a yearly checkout; a failure says so and skips the survey',
    ROOMY,
    async () => {
      window.localStorage.removeItem(STORAGE_KEYS.surveySkipped);
      const backend = await open('/app/pricing');
      const orders: unknown[] = [];
      backend.on('POST', '/functions/v1/billing/new-subscription', async (request) => {
        orders.push(await request.json());
        return json(
          { code: 'subscription_create_failed', message: CREATE_FAILED_MESSAGE },
          { status: 502 },
        );
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }, SLOW));
      expect((await screen.findAllByText(CREATE_FAILED_MESSAGE, {}, SLOW)).length).toBeGreaterThan(
        0,
      );
      expect(orders).toEqual([
        // No billing type: the function takes the account's preferred provider, else its default.
        expect.objectContaining({
          subscription: 'pro',
          interval: 'yearly',
          type: 'default',
        }),
      ]);
      await waitFor(() =>
        expect(window.localStorage.getItem(STORAGE_KEYS.surveySkipped)).toBe('true'),
      );
    },
  );
});
