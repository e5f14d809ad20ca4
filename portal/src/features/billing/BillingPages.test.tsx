import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_POLL_MS, CREATE_FAILED_MESSAGE } from '../../data/billing.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';

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

const proYearly = (overrides: Record<string, unknown> = {}) => ({
  id: 'sub-1',
  name: 'pro',
  interval: 'yearly',
  amount: 12900,
  currency: 'USD',
  billing_status: 'active',
  ends_at: null,
  trial_ends_at: null,
  period_starts_at: '2026-01-01T00:00:00Z',
  period_ends_at: '2099-01-01T00:00:00Z',
  ...overrides,
});

async function openSubscription(route: string, state: unknown) {
  const backend = new TestBackend();
  backend.on('GET', '/functions/v1/billing/settings/subscription', () => json(state));
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
  const app = renderApp({ route, world: signedInWorld(), backend, testServices });
  return { backend, router: app.router };
}

describe('settings/subscription', () => {
  it('shows the free plan with a way to the pricing page', ROOMY, async () => {
    await openSubscription('/app/settings/subscription', { subscription: null, future: null });
    expect(await screen.findByTestId('current-plan', {}, SLOW)).toHaveTextContent('Free');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/pricing');
  });

  it(
    'shows a card subscription on trial with its renewal, trial days, switch and cancel',
    ROOMY,
    async () => {
      const trialEnd = new Date(Date.now() + 5 * 86_400_000 - 60_000).toISOString();
      await openSubscription('/app/settings/subscription', {
        subscription: proYearly({ trial_ends_at: trialEnd, period_ends_at: trialEnd }),
        future: null,
      });
      expect(await screen.findByTestId('current-plan', {}, SLOW)).toHaveTextContent('Pro');
      expect(screen.getByTestId('trial-days-left')).toHaveTextContent('5 days left in your trial.');
      expect(screen.getByTestId('renewal')).toHaveTextContent(/^Renews on /);
      expect(screen.getByRole('link', { name: 'Cancel subscription' })).toHaveAttribute(
        'href',
        '/app/settings/subscription/cancel',
      );
      expect(screen.getByRole('link', { name: 'Switch to monthly billing' })).toHaveAttribute(
        'href',
        '/app/settings/subscription/update/pro/monthly',
      );
    },
  );

  it(
    'in the grace period: the end date and Resume, which waits 3 s then refreshes',
    ROOMY,
    async () => {
      const { backend } = await openSubscription('/app/settings/subscription', {
        subscription: proYearly({ ends_at: '2099-01-01T00:00:00Z' }),
        future: null,
      });
      let resumed = 0;
      backend.on('PUT', '/functions/v1/billing/settings/subscription/resume', () => {
        resumed++;
        return json({ subscription: proYearly(), future: null });
      });
      expect(await screen.findByTestId('grace-period', {}, SLOW)).toHaveTextContent(
        'Your plan is cancelled. It stays active until January 1, 2099.',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Resume subscription' }));
      expect(
        await screen.findByText('Your subscription is resumed.', {}, ROOMY),
      ).toBeInTheDocument();
      expect(resumed).toBe(1);
    },
  );

  it('shows a pending downgrade, which "Keep my current plan" cancels', ROOMY, async () => {
    const { backend } = await openSubscription('/app/settings/subscription', {
      subscription: proYearly({ name: 'business', amount: 49900 }),
      future: proYearly({ id: 'sub-2', period_starts_at: '2099-01-01T00:00:00Z' }),
    });
    const calls: string[] = [];
    backend.on('DELETE', '/functions/v1/billing/settings/subscription/scheduled', () => {
      calls.push('scheduled');
      return json({ subscription: proYearly(), future: null });
    });
    expect(await screen.findByTestId('pending-downgrade', {}, SLOW)).toHaveTextContent(
      'Your plan changes to Pro (yearly) on January 1, 2099.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Keep my current plan' }));
    expect(await screen.findByText('Your plan stays as it is.', {}, ROOMY)).toBeInTheDocument();
    expect(calls).toEqual(['scheduled']);
  });

  it(
    'after the plan ended: Reactivate; a declined card goes to the payment page',
    ROOMY,
    async () => {
      const { backend, router } = await openSubscription('/app/settings/subscription', {
        subscription: proYearly({ ends_at: '2020-01-01T00:00:00Z', billing_status: 'canceled' }),
        future: null,
      });
      backend.on('PATCH', '/functions/v1/billing/settings/subscription', () =>
        json({ code: 'payment_declined', message: MESSAGES.paymentDeclined }, { status: 402 }),
      );
      expect(await screen.findByTestId('ended', {}, SLOW)).toHaveTextContent(
        'Your Pro plan ended on January 1, 2020.',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Reactivate Pro' }));
      expect(await screen.findByText(MESSAGES.paymentDeclined, {}, SLOW)).toBeInTheDocument();
      await waitFor(() =>
        expect(router.state.location.pathname).toBe('/app/settings/payment-method'),
      );
    },
  );
});

describe('settings/subscription/cancel', () => {
  it('cancels now with the /now call, then returns to the subscription', ROOMY, async () => {
    const { backend, router } = await openSubscription('/app/settings/subscription/cancel', {
      subscription: proYearly(),
      future: null,
    });
    const bodies: unknown[] = [];
    backend.on('DELETE', '/functions/v1/billing/settings/subscription/now', async (request) => {
      bodies.push(await request.json());
      return json({ subscription: proYearly({ ends_at: '2020-01-01T00:00:00Z' }), future: null });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel now' }, SLOW));
    expect(await screen.findByText('Your subscription has ended.', {}, ROOMY)).toBeInTheDocument();
    expect(bodies).toEqual([{ billing_type: 1 }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/settings/subscription'));
  });

  it(
    'a Paddle subscription offers plan changes and is cancelled as billing type 2',
    ROOMY,
    async () => {
      const paddle = proYearly({ billing_type: 2 });
      const { backend, router } = await openSubscription('/app/settings/subscription', {
        subscription: paddle,
        future: null,
      });
      expect(
        await screen.findByRole('link', { name: 'Switch to monthly billing' }, SLOW),
      ).toBeInTheDocument();
      expect(screen.getByRole('table', { name: 'Change plan' })).toBeInTheDocument();
      const bodies: unknown[] = [];
      backend.on('DELETE', '/functions/v1/billing/settings/subscription', async (request) => {
        bodies.push(await request.json());
        return json({ subscription: { ...paddle, ends_at: paddle.period_ends_at }, future: null });
      });
      fireEvent.click(screen.getByRole('link', { name: 'Cancel subscription' }));
      fireEvent.click(
        await screen.findByRole('button', { name: 'Cancel at the end of the period' }, SLOW),
      );
      expect(
        await screen.findByText(
          'Your subscription is cancelled. It stays active until the end of the period.',
          {},
          ROOMY,
        ),
      ).toBeInTheDocument();
      expect(bodies).toEqual([{ billing_type: 2 }]);
      await waitFor(() =>
        expect(router.state.location.pathname).toBe('/app/settings/subscription'),
      );
    },
  );
});

describe('settings/subscription/update', () => {
  const preview = {
    change: 'upgrade',
    plan: { name: 'business', interval: 'yearly', amount: 49900, currency: 'USD' },
    amount_due: 37000,
    currency: 'USD',
    lines: [
      { description: 'Unused time on Pro', amount: -12900 },
      { description: '1 × Business', amount: 49900 },
    ],
  };

  it(
    'shows what Stripe charges now; a declined payment goes to the payment page',
    ROOMY,
    async () => {
      const { backend, router } = await openSubscription(
        '/app/settings/subscription/update/business/yearly',
        { subscription: proYearly(), future: null },
      );
      backend.on('GET', '/functions/v1/billing/settings/subscription/preview', () => json(preview));
      backend.on('PUT', '/functions/v1/billing/settings/subscription', () =>
        json({ code: 'payment_declined', message: MESSAGES.paymentDeclined }, { status: 402 }),
      );
      expect(await screen.findByTestId('amount-due', {}, SLOW)).toHaveTextContent(
        'Due today: $370.00',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Confirm and pay' }));
      expect(await screen.findByText(MESSAGES.paymentDeclined, {}, SLOW)).toBeInTheDocument();
      await waitFor(() =>
        expect(router.state.location.pathname).toBe('/app/settings/payment-method'),
      );
    },
  );

  it(
    'a declined Paddle upgrade opens a payment-method update checkout with the notice',
    ROOMY,
    async () => {
      const { backend } = await openSubscription(
        '/app/settings/subscription/update/business/yearly',
        { subscription: proYearly({ billing_type: 2, account_id: 'acc-paddle' }), future: null },
      );
      backend.on('GET', '/functions/v1/billing/settings/subscription/preview', () => json(preview));
      backend.on('PUT', '/functions/v1/billing/settings/subscription', () =>
        json({ code: 'payment_declined', message: MESSAGES.paymentDeclined }, { status: 402 }),
      );
      const asked: string[] = [];
      backend.on('GET', '/functions/v1/billing/settings/payment-method', (request) => {
        asked.push(new URL(request.url).search);
        return json({
          data: {
            billing_type: 2,
            transaction_id: 'txn_01',
            payment_url: 'http://localhost/paddle/payment?flow=payment-method-update&_ptxn=txn_01',
          },
        });
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Confirm and pay' }, SLOW));
      expect(await screen.findByText(MESSAGES.paymentDeclined, {}, SLOW)).toBeInTheDocument();
      await waitFor(() => expect(asked).toHaveLength(1));
      const query = new URLSearchParams(asked[0]);
      expect(query.get('billing_type')).toBe('2');
      expect(query.get('account_id')).toBe('acc-paddle');
      expect(query.get('return_path')).toBe('/app/settings/subscription');
    },
  );

  it("a 406 shows the server's reason", ROOMY, async () => {
    const { backend } = await openSubscription(
      '/app/settings/subscription/update/business/yearly',
      { subscription: proYearly(), future: null },
    );
    backend.on('GET', '/functions/v1/billing/settings/subscription/preview', () => json(preview));
    backend.on('PUT', '/functions/v1/billing/settings/subscription', () =>
      json({ code: 'not_eligible', message: MESSAGES.notEligibleForPlan }, { status: 406 }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and pay' }, SLOW));
    expect(await screen.findByText(MESSAGES.notEligibleForPlan, {}, SLOW)).toBeInTheDocument();
  });

  it('an upgrade waits on the verification page until the plan shows it', ROOMY, async () => {
    const { backend, router } = await openSubscription(
      '/app/settings/subscription/update/business/yearly',
      { subscription: proYearly(), future: null },
    );
    let updated = false;
    backend.on('GET', '/functions/v1/billing/settings/subscription/preview', () => json(preview));
    backend.on('PUT', '/functions/v1/billing/settings/subscription', () => {
      updated = true;
      return json({ change: 'upgrade', subscription: proYearly(), future: null });
    });
    // The webhook lands a little later: the first answers still show Pro.
    let asked = 0;
    backend.on('GET', '/functions/v1/billing/settings/subscription', () => {
      asked++;
      return json({
        subscription: updated && asked > 3 ? proYearly({ name: 'business' }) : proYearly(),
        future: null,
      });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and pay' }, SLOW));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/app/settings/subscription/update/verification'),
    );
    // The verification page is lazy: on a loaded machine it renders after the navigation.
    expect(
      await screen.findByRole('progressbar', { name: 'Confirmation progress' }, SLOW),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('updated-plan', {}, ROOMY)).toHaveTextContent(
      'You are now on Business (yearly).',
    );
  });
});

describe('pricing: Choose a plan', () => {
  it(
    'a plan that needs the billing address first leads to the tax details page',
    ROOMY,
    async () => {
      const backend = new TestBackend();
      backend.on('POST', '/functions/v1/billing/new-subscription', () =>
        json(
          {
            code: 'validation_failed',
            message: 'Validation fails',
            errors: {
              billing_address: [
                'This plan needs your billing address and tax details before you subscribe.',
              ],
            },
          },
          { status: 422 },
        ),
      );
      const testServices = createTestServices(backend);
      await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
      const { router } = renderApp({
        route: '/app/pricing',
        world: signedInWorld(),
        backend,
        testServices,
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }, SLOW));
      await waitFor(
        () => expect(router.state.location.pathname).toMatch(/^\/user\/vatinfo\/[A-Za-z0-9_-]+$/),
        ROOMY,
      );
    },
  );

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
