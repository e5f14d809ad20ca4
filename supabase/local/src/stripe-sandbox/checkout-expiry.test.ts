import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStripeSandbox,
  SANDBOX_STRIPE_SECRET_KEY,
  type StripeSandbox,
  type StripeSandboxOptions,
} from './index.ts';

/**
 * An abandoned checkout: Stripe expires an open session at its `expires_at` (24 hours unless
 * the request says otherwise) or when `POST /v1/checkout/sessions/:id/expire` closes it, and
 * sends checkout.session.expired. The sandbox's default life is configurable, so tests wait
 * seconds.
 */
let sandbox: StripeSandbox;
let clock = 1_800_000_000;

function sdk(options: Partial<StripeSandboxOptions> = {}): Stripe {
  sandbox = createStripeSandbox({
    publicUrl: 'http://sandbox.test',
    now: () => clock,
    expirySweepMs: 5,
    ...options,
  });
  return new Stripe(SANDBOX_STRIPE_SECRET_KEY, {
    host: 'sandbox.test',
    port: 80,
    protocol: 'http',
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((input, init) =>
      sandbox.handler(new Request(String(input), init as RequestInit)),
    ),
  });
}

afterEach(async () => {
  await sandbox?.stop();
});

const session = (stripe: Stripe, expiresAt?: number) =>
  stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: 'usd',
          unit_amount: 1299,
          recurring: { interval: 'year' },
          product_data: { name: 'Domains: brand.com' },
        },
      },
    ],
    success_url: 'http://portal.test/done',
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  });

const expiredEvents = () =>
  sandbox.world.events.filter((event) => event.type === 'checkout.session.expired');

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('checkout session expiry', () => {
  it('lives 24 hours by default, or as configured', async () => {
    const stripe = sdk();
    expect((await session(stripe)).expires_at).toBe(clock + 24 * 3600);
    await sandbox.stop();
    const short = sdk({ checkoutExpirySeconds: 5 });
    expect((await session(short)).expires_at).toBe(clock + 5);
  });

  it('expires on its own at expires_at, once, with checkout.session.expired', async () => {
    const stripe = sdk();
    const open = await session(stripe, clock + 60);
    await new Promise((r) => setTimeout(r, 30));
    expect(expiredEvents()).toHaveLength(0);
    clock += 61;
    await waitFor(() => expiredEvents().length === 1);
    await new Promise((r) => setTimeout(r, 30));
    expect(expiredEvents()).toHaveLength(1);
    const event = expiredEvents()[0]!;
    expect(event.data.object).toMatchObject({ id: open.id, status: 'expired', url: null });
    const read = await stripe.checkout.sessions.retrieve(open.id);
    expect(read.status).toBe('expired');
    const page = await sandbox.handler(new Request(`http://sandbox.test/c/pay/${open.id}`));
    expect(page.status).toBe(410);
  });

  it('expires at once through POST /v1/checkout/sessions/:id/expire; only an open one', async () => {
    const stripe = sdk();
    const open = await session(stripe);
    const expired = await stripe.checkout.sessions.expire(open.id);
    expect(expired.status).toBe('expired');
    expect(expiredEvents().map((event) => event.data.object.id)).toEqual([open.id]);
    await expect(stripe.checkout.sessions.expire(open.id)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('can be expired'),
    });
    expect(expiredEvents()).toHaveLength(1);
  });

  it('refuses an expires_at in the past or beyond 24 hours', async () => {
    const stripe = sdk();
    await expect(session(stripe, clock - 1)).rejects.toMatchObject({
      statusCode: 400,
      param: 'expires_at',
    });
    await expect(session(stripe, clock + 24 * 3600 + 1)).rejects.toMatchObject({
      statusCode: 400,
      param: 'expires_at',
    });
  });
});
