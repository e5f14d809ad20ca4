import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { signedInWorld } from '../../test/world.ts';

const SLOW = { timeout: 10_000 };

const cart = (items: object[]) => ({
  items,
  total: items.reduce((sum, item) => sum + (item as { amount: number }).amount, 0),
  currency: 'USD',
  discounts_left: 0,
});

describe('domain purchase pages', { timeout: 30_000 }, () => {
  it('says the cart is empty', async () => {
    const backend = new TestBackend().on('POST', '/rest/v1/rpc/shopping_cart', () =>
      json(cart([])),
    );
    renderApp({ route: '/app/shopping-cart', world: signedInWorld(), backend });
    expect(
      await screen.findByText('Nothing to checkout, the cart is empty', {}, SLOW),
    ).toBeInTheDocument();
  });

  it('shows the lines with the database’s prices, changes years and starts the checkout', async () => {
    const user = userEvent.setup();
    const backend = new TestBackend()
      .on('POST', '/rest/v1/rpc/shopping_cart', () =>
        json(
          cart([
            {
              id: 'line-1',
              domain: 'brand.com',
              years: 1,
              yearly_amount: 1299,
              discount: 200,
              amount: 1099,
              currency: 'USD',
            },
          ]),
        ),
      )
      .on('PATCH', '/rest/v1/cart_items', () => json([]))
      .on('POST', '/functions/v1/domain-purchase/checkout', () =>
        json({ order_id: 'o1', checkout: { transaction_id: 'cs_test_1', payment_url: '#' } }),
      );
    renderApp({ route: '/app/purchase/domain/cart', world: signedInWorld(), backend });
    const table = await screen.findByRole('table', { name: 'Cart' }, SLOW);
    expect(within(table).getByText('brand.com')).toBeInTheDocument();
    expect(within(table).getByText(/\$2\.00 off the first year/)).toBeInTheDocument();
    expect(screen.getByTestId('cart-total')).toHaveTextContent('Total: $10.99');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Years for brand.com' }), '3');
    await waitFor(() => expect(backend.requestsTo('PATCH', '/rest/v1/cart_items')).toHaveLength(1));
    expect(await backend.requestsTo('PATCH', '/rest/v1/cart_items')[0]!.json()).toEqual({
      years: 3,
    });

    await user.click(screen.getByRole('button', { name: 'Checkout' }));
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/functions/v1/domain-purchase/checkout')).toHaveLength(1),
    );
    const body = (await backend
      .requestsTo('POST', '/functions/v1/domain-purchase/checkout')[0]!
      .json()) as Record<string, unknown>;
    // No price leaves the browser: the server prices the cart.
    expect(body).toEqual({ billing_type: 1 });
  });

  it('checks out through Paddle (billing type 2) when that is the account’s provider', async () => {
    const user = userEvent.setup();
    const paymentUrl = '#/paddle/payment?flow=domain-purchase&_ptxn=txn_01domains';
    const backend = new TestBackend()
      .on('POST', '/rest/v1/rpc/shopping_cart', () =>
        json(
          cart([
            {
              id: 'line-1',
              domain: 'brand.com',
              years: 2,
              yearly_amount: 1299,
              discount: 0,
              amount: 2598,
              currency: 'USD',
            },
          ]),
        ),
      )
      .table('billing_customers', [{ billing_type: 2, pm_type: null, pm_last_four: null }])
      .on('POST', '/functions/v1/domain-purchase/checkout', () =>
        json({
          order_id: 'o2',
          checkout: { billing_type: 2, transaction_id: 'txn_01domains', payment_url: paymentUrl },
        }),
      );
    renderApp({ route: '/app/shopping-cart', world: signedInWorld(), backend });
    await screen.findByRole('table', { name: 'Cart' }, SLOW);
    await waitFor(() =>
      expect(backend.requestsTo('GET', '/rest/v1/billing_customers')).not.toEqual([]),
    );
    await user.click(screen.getByRole('button', { name: 'Checkout' }));
    await waitFor(() =>
      expect(backend.requestsTo('POST', '/functions/v1/domain-purchase/checkout')).toHaveLength(1),
    );
    expect(
      await backend.requestsTo('POST', '/functions/v1/domain-purchase/checkout')[0]!.json(),
    ).toEqual({ billing_type: 2 });
    await waitFor(() => expect(window.location.hash).toBe(paymentUrl));
  });

  it('searches a name and shows each extension’s status and price', async () => {
    const backend = new TestBackend()
      .on('POST', '/rest/v1/rpc/shopping_cart', () => json(cart([])))
      .on('GET', '/functions/v1/domain-purchase/search', (_request, url) =>
        json({
          name: url.searchParams.get('name'),
          results: [
            {
              domain: 'brand.com',
              tld: 'com',
              status: 'available',
              yearly_amount: 1299,
              first_year_amount: 1099,
              currency: 'USD',
            },
            {
              domain: 'brand.net',
              tld: 'net',
              status: 'taken',
              yearly_amount: 1499,
              first_year_amount: 1499,
              currency: 'USD',
            },
          ],
        }),
      );
    renderApp({ route: '/app/purchase/domain?name=brand', world: signedInWorld(), backend });
    const table = await screen.findByRole('table', { name: 'Search results' }, SLOW);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('brand.comavailable$10.99 the first year, then $12.99'),
      expect.stringContaining('brand.nettaken$14.99'),
    ]);
    expect(screen.getByRole('button', { name: 'Add brand.com to the cart' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add brand.net to the cart' })).toBeNull();
  });

  it('follows the order until its domains are registered', async () => {
    const backend = new TestBackend().table('orders', [
      {
        id: '5b1e0c7a-1111-4222-8333-944455556666',
        status: 48,
        amount: 1299,
        currency: 'USD',
        purchase_source: 'domain-purchase',
        purchased_domains: [
          {
            id: 'p1',
            domain: 'brand.com',
            years: 1,
            status: 'registered',
            problem: null,
            expires_at: null,
            domain_id: 'd1',
            refund_amount: null,
            refunded_at: null,
          },
        ],
      },
    ]);
    renderApp({
      route: '/app/shopping-cart/success?session_id=cs_test_1',
      world: signedInWorld(),
      backend,
    });
    expect(await screen.findByTestId('order-status', {}, SLOW)).toHaveTextContent('paid');
    expect(screen.getByTestId('purchased-domain')).toHaveTextContent('registered and ready');
  });

  const refusedOrder = (status: number, refundedAt: string | null) => ({
    id: '5b1e0c7a-2222-4222-8333-944455556666',
    status,
    amount: 1299,
    currency: 'USD',
    purchase_source: 'domain-purchase',
    purchased_domains: [
      {
        id: 'p2',
        domain: 'gone.com',
        years: 1,
        status: 'failed',
        problem: 'The registrar refused the registration: the name is not available.',
        expires_at: null,
        domain_id: null,
        refund_amount: 1299,
        refunded_at: refundedAt,
      },
    ],
  });

  it('says a refused name is being refunded, then refunded with the reason', async () => {
    const backend = new TestBackend().table('orders', [refusedOrder(49, null)]);
    renderApp({
      route: '/app/shopping-cart/success?session_id=cs_test_2',
      world: signedInWorld(),
      backend,
    });
    expect(
      await screen.findByText(
        'A domain could not be registered; its payment is being refunded.',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    backend.table('orders', [refusedOrder(51, '2026-11-27T09:00:00Z')]);
    await waitFor(
      () => expect(screen.getByTestId('order-status')).toHaveTextContent('refunded'),
      SLOW,
    );
    const row = screen.getByTestId('purchased-domain');
    expect(row).toHaveTextContent('refunded');
    expect(row).toHaveTextContent('the name is not available');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
