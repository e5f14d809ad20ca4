import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, TestBackend } from '../../test/backend.ts';
import { renderApp } from '../../test/render.tsx';
import { createTestServices, startSession } from '../../test/services.ts';
import { signedInWorld, TEST_USER_ID } from '../../test/world.ts';

const SLOW = { timeout: 10_000 };
const ROOMY = { timeout: 30_000 };

async function open(route: string, script: (backend: TestBackend) => void) {
  const backend = new TestBackend();
  const testServices = createTestServices(backend);
  await startSession(testServices, backend, { id: TEST_USER_ID, email: 'ada@example.com' });
  renderApp({ route, world: signedInWorld(), backend, testServices });
  // The world's scripts are added by renderApp; the page's own come last so they win.
  script(backend);
  return backend;
}

const order = (id: string, status: number, description = 'Pro (Yearly)') => ({
  id,
  status,
  amount: 12900,
  currency: 'EUR',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  order_items: [
    { id: `${id}-item`, kind: 'subscription', description, quantity: 1, amount: 12900 },
  ],
});

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('settings/invoices', () => {
  it('lists invoices in their currency and downloads one as a PDF', ROOMY, async () => {
    const saved: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob as Blob);
      return 'blob:invoice';
    };
    URL.revokeObjectURL = () => {};
    const backend = await open('/app/settings/invoices', (b) =>
      b
        .table('invoices', [
          {
            id: '11111111-1111-4111-8111-111111111111',
            number: 'SBX-0002',
            amount: 1200,
            currency: 'EUR',
            status: 'open',
            billing_type: 1,
            issued_at: '2026-11-20T00:00:00Z',
            paid_at: null,
          },
          {
            id: '22222222-2222-4222-8222-222222222222',
            number: 'SBX-0001',
            amount: 12900,
            currency: 'USD',
            status: 'paid',
            billing_type: 1,
            issued_at: '2026-10-20T00:00:00Z',
            paid_at: '2026-10-20T00:00:00Z',
          },
        ])
        .on(
          'GET',
          '/functions/v1/billing/invoices/22222222-2222-4222-8222-222222222222/pdf',
          () =>
            new Response('%PDF-1.4 test', {
              headers: { 'content-type': 'application/pdf' },
            }),
        ),
    );
    const table = await screen.findByRole('table', { name: 'Invoices' }, SLOW);
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/SBX-0002.*€12\.00.*open/);
    expect(rows[2]).toHaveTextContent(/SBX-0001.*\$129\.00.*paid/);
    fireEvent.click(screen.getByRole('button', { name: 'Download invoice SBX-0001 (PDF)' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toBe('%PDF-1.4 test');
    expect(
      backend.requestsTo(
        'GET',
        '/functions/v1/billing/invoices/22222222-2222-4222-8222-222222222222/pdf',
      ),
    ).toHaveLength(1);
  });
});

describe('settings/payment-method', () => {
  it('shows the card on file and opens the provider to replace it', ROOMY, async () => {
    const backend = await open('/app/settings/payment-method', (b) =>
      b
        .table('billing_customers', [
          {
            billing_type: 1,
            pm_type: 'visa',
            pm_last_four: '4242',
            pm_expiration: '12/2030',
            pm_country: 'US',
            pm_synced_at: '2026-11-01T00:00:00Z',
            tax_id: null,
            tax_id_type: null,
            billing_address: null,
          },
        ])
        .on('GET', '/functions/v1/billing/settings/payment-method', () =>
          json({
            data: {
              billing_type: 1,
              transaction_id: 'cs_test_setup',
              payment_url: 'about:blank#setup',
              success_url: 'x',
            },
          }),
        ),
    );
    const card = await screen.findByTestId('payment-method', {}, SLOW);
    expect(card).toHaveTextContent('Visa ending in 4242');
    expect(card).toHaveTextContent('Expires 12/2030');
    expect(card).toHaveTextContent('United States');
    fireEvent.click(screen.getByRole('button', { name: 'Update payment method' }));
    await waitFor(() =>
      expect(sessionStorage.getItem('paymentMethodSyncedAt')).toBe('2026-11-01T00:00:00Z'),
    );
    const [request] = backend.requestsTo('GET', '/functions/v1/billing/settings/payment-method');
    const query = new URL(request!.url).searchParams;
    expect(query.get('return_path')).toBe('/app/settings/payment-method');
    expect(query.get('account_id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says so when there is no card', ROOMY, async () => {
    await open('/app/settings/payment-method', (b) => b.table('billing_customers', []));
    expect(await screen.findByText('No card on file.', {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update payment method' })).toBeNull();
  });
});

describe('settings/orders and one order', () => {
  it('labels each order with the spec’s payment status', ROOMY, async () => {
    await open('/app/settings/orders', (b) =>
      b.table('orders', [
        order('a1aaaaaa-0000-4000-8000-000000000001', 48),
        order('a2aaaaaa-0000-4000-8000-000000000002', 50),
        order('a3aaaaaa-0000-4000-8000-000000000003', 19),
        order('a4aaaaaa-0000-4000-8000-000000000004', 51),
        order('a5aaaaaa-0000-4000-8000-000000000005', 49),
      ]),
    );
    const table = await screen.findByRole('table', { name: 'Orders' }, SLOW);
    const labels = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.lastElementChild?.textContent);
    expect(labels).toEqual(['paid', 'failed', 'fraud review', 'refunded', 'cancelled']);
    expect(within(table).getByRole('link', { name: '#a1aaaaaa' })).toHaveAttribute(
      'href',
      '/app/settings/order/a1aaaaaa-0000-4000-8000-000000000001',
    );
  });

  it('shows an order’s items and its notification', ROOMY, async () => {
    const id = 'aaaaaaaa-0000-4000-8000-000000000002';
    await open(`/app/settings/order/${id}`, (b) => b.table('orders', [order(id, 50)]));
    expect(await screen.findByTestId('order-status', {}, SLOW)).toHaveTextContent('failed');
    expect(screen.getByRole('table', { name: 'Order items' })).toHaveTextContent(
      /Pro \(Yearly\).*€129\.00/,
    );
    expect(screen.getByRole('status')).toHaveTextContent('The payment for this order failed.');
    fireEvent.click(screen.getByRole('link', { name: 'Order notification' }));
    expect(await screen.findByRole('heading', { name: 'Order notification' }, SLOW)).toBeDefined();
    expect(screen.queryByRole('table', { name: 'Order items' })).toBeNull();
  });

  it('does not show an order that is not the user’s', ROOMY, async () => {
    await open('/app/settings/order/aaaaaaaa-0000-4000-8000-000000000009', (b) =>
      b.table('orders', []),
    );
    expect(await screen.findByText('Order not found', {}, SLOW)).toBeInTheDocument();
  });
});

describe('/user/vatinfo/{encrypted}', () => {
  const customer = {
    billing_type: 1,
    pm_type: 'visa',
    pm_last_four: '4242',
    pm_expiration: '12/2030',
    pm_country: 'US',
    pm_synced_at: null,
    tax_id: null,
    tax_id_type: null,
    billing_address: null,
  };

  it('checks the form, sends the details to the billing function and says so', ROOMY, async () => {
    const sent: unknown[] = [];
    await open('/user/vatinfo/N2UxZDViNTQtNGY1Yy00ZjRmLThiNjQtMWQyZjRjOGIwZjIx', (b) =>
      b
        .table('billing_customers', [customer])
        .on('PUT', '/functions/v1/billing/vatinfo', async (request) => {
          sent.push(await request.json());
          return json({ billing_customer: { tax_id: 'DE123456789' } });
        }),
    );
    const form = await screen.findByRole('form', { name: 'Tax details' }, SLOW);
    fireEvent.click(within(form).getByRole('button', { name: 'Save tax details' }));
    expect(await screen.findByText('The street address is required.')).toBeInTheDocument();
    expect(screen.getByText('Choose a country.')).toBeInTheDocument();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('Tax id'), { target: { value: 'DE123456789' } });
    fireEvent.change(screen.getByLabelText(/Street address/), { target: { value: 'Hauptstr. 1' } });
    fireEvent.change(screen.getByLabelText(/Country code/), { target: { value: 'de' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save tax details' }));
    expect(
      await screen.findByText('Give both the kind of tax id and its number, or neither.'),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Tax id'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save tax details' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      account_id: '7e1d5b54-4f5c-4f4f-8b64-1d2f4c8b0f21',
      address: { line1: 'Hauptstr. 1', country: 'DE' },
    });
    expect(await screen.findByText('Your tax details were saved.', {}, SLOW)).toBeInTheDocument();
  });
});
