import type { Paddle, PaddleEventData } from '@paddle/paddle-js';
import { STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_DECLINED_MESSAGE } from '../../data/billing.ts';
import { paddleFlowTargets } from './paddleFlow.ts';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';

const SLOW = { timeout: 10_000 };
const ROOMY = { timeout: 30_000 };

/**
 * A Paddle.js double in `window.PaddleBillingV1`, where `@paddle/paddle-js` finds an already
 * loaded Paddle.js: it records what the page initializes it with and lets the test play the
 * overlay's events. (The real overlay runs in the e2e spec against the sandbox.)
 */
const fake = {
  options: null as { token?: string; eventCallback?: (event: PaddleEventData) => void } | null,
  opened: [] as string[],
  closed: 0,
};

beforeAll(() => {
  const paddle = {
    Initialized: false,
    Environment: { set: () => undefined },
    Initialize(options: typeof fake.options) {
      fake.options = options;
      paddle.Initialized = true;
    },
    Update(options: typeof fake.options) {
      fake.options = { ...fake.options, ...options };
    },
    Checkout: {
      open: ({ transactionId }: { transactionId: string }) => fake.opened.push(transactionId),
      close: () => fake.closed++,
    },
    Status: { libraryVersion: 'test' },
  };
  window.PaddleBillingV1 = paddle as unknown as Paddle;
});

async function open(route: string) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
  renderApp({ route, world: signedInWorld(), backend, testServices });
  return backend;
}

async function play(event: PaddleEventData) {
  await waitFor(() => expect(fake.options?.eventCallback).toBeDefined(), SLOW);
  act(() => fake.options!.eventCallback!(event));
}

describe('/paddle/payment', () => {
  it(
    'initializes Paddle.js with the client-side token; a declined card shows the spec message',
    ROOMY,
    async () => {
      window.localStorage.removeItem(STORAGE_KEYS.surveySkipped);
      await open('/paddle/payment?_ptxn=txn_01aaaaaaaaaaaaaaaaaaaaaaaa');
      expect(await screen.findByText('Opening the secure payment form…', {}, SLOW)).toBeVisible();
      await play({ name: 'checkout.loaded' as PaddleEventData['name'] });
      expect(fake.options?.token).toMatch(/^test_/);
      expect(screen.queryByText('Opening the secure payment form…')).toBeNull();
      await play({ name: 'checkout.payment.failed' as PaddleEventData['name'] });
      expect(await screen.findByTestId('payment-declined')).toHaveTextContent(
        PAYMENT_DECLINED_MESSAGE,
      );
      expect(window.localStorage.getItem(STORAGE_KEYS.surveySkipped)).toBe('true');
    },
  );

  it(
    'closes the overlay once the checkout completes and waits for the plan on the success page',
    ROOMY,
    async () => {
      const backend = await open('/paddle/payment?_ptxn=txn_01bbbbbbbbbbbbbbbbbbbbbbbb');
      backend.on('GET', '/functions/v1/billing/checkout/txn_01bbbbbbbbbbbbbbbbbbbbbbbb', () =>
        json({ status: 'complete', subscription: null }),
      );
      // Paddle.js was initialized by the first page: this visit opens its checkout itself.
      await waitFor(() => expect(fake.opened).toContain('txn_01bbbbbbbbbbbbbbbbbbbbbbbb'), SLOW);
      const closedBefore = fake.closed;
      await play({
        name: 'checkout.completed' as PaddleEventData['name'],
        data: { transaction_id: 'txn_01bbbbbbbbbbbbbbbbbbbbbbbb' } as PaddleEventData['data'],
      });
      expect(
        await screen.findByRole('heading', { name: 'Confirming your payment' }, SLOW),
      ).toBeVisible();
      expect(fake.closed).toBe(closedBefore + 1);
    },
  );

  it('says so when the address names no transaction', ROOMY, async () => {
    await open('/paddle/payment');
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'There is no payment to open here',
    );
  });
});

describe('where /paddle/payment goes by the payment flow kind', () => {
  const targets = (query: string) => paddleFlowTargets(new URLSearchParams(query), 'txn_1');

  it("a purchase completes on its scope's success page and closes to the plans", () => {
    expect(targets('_ptxn=txn_1')).toEqual({
      completed: '/app/settings/subscription/success?session_id=txn_1',
      closed: '/app/pricing',
    });
    expect(targets('scope=team%3Aacme%2Fsales&_ptxn=txn_1').completed).toBe(
      '/app/organization/acme/team/sales/subscription/success?session_id=txn_1',
    );
    expect(targets('scope=organization%3Aacme&_ptxn=txn_1').completed).toBe(
      '/app/organizations/acme/settings/profile/subscription/success?session_id=txn_1',
    );
  });

  it('an invoice payment goes home; a payment-method update back to its own page only', () => {
    expect(targets('flow=invoice-payment')).toEqual({ completed: '/app', closed: '/app' });
    expect(targets('flow=payment-method-update&return=%2Fapp%2Fsettings%2Fsubscription')).toEqual({
      completed: '/app/settings/subscription?session_id=txn_1',
      closed: '/app/settings/subscription',
    });
    // Not a portal page: the payment-method page instead, never another site.
    expect(targets('flow=payment-method-update&return=https%3A%2F%2Fevil.test').closed).toBe(
      '/app/settings/payment-method',
    );
  });

  it('a domain purchase completes on shopping-cart.verify with the transaction as session id', () => {
    expect(targets('flow=domain-purchase&_ptxn=txn_1')).toEqual({
      completed: '/app/shopping-cart/success?session_id=txn_1',
      closed: '/app/shopping-cart',
    });
  });
});
