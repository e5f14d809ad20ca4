import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Paddle, type Environment } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWebRequest } from '../http.ts';
import { createPaddleSandbox, SANDBOX_PADDLE_API_KEY, type PaddleSandbox } from './index.ts';

/** Refund adjustments of a completed transaction through the official SDK over HTTP. */
let sandbox: PaddleSandbox;
let server: http.Server;
let paddle: Paddle;

beforeAll(async () => {
  const holder = { origin: '' };
  server = http.createServer((req, res) => {
    void serveWebRequest(req, res, holder.origin, (request) => sandbox.handler(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  holder.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox = createPaddleSandbox({ publicUrl: holder.origin });
  paddle = new Paddle(SANDBOX_PADDLE_API_KEY, { environment: holder.origin as Environment });
});

afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => server.close(resolve));
});

/** A paid transaction: a yearly item of 4499 and a one-time one of 4499. */
async function completedTransaction() {
  const email = `adj-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const customer = await paddle.customers.create({ email });
  const item = (name: string, yearly: boolean) => ({
    quantity: 1,
    price: {
      description: name,
      name,
      unitPrice: { amount: '4499', currencyCode: 'USD' as const },
      ...(yearly ? { billingCycle: { interval: 'year' as const, frequency: 1 } } : {}),
      product: { name, taxCategory: 'standard' as const },
    },
  });
  const transaction = await paddle.transactions.create({
    customerId: customer.id,
    items: [item('Domains (yearly)', true), item('one more year', false)],
  });
  sandbox.world.completeCheckout(
    transaction.id,
    { email, countryCode: 'US', postalCode: '10001' },
    { number: '4242424242424242', expMonth: 12, expYear: 2040, cardholderName: 'Pat' },
  );
  return await paddle.transactions.get(transaction.id);
}

describe('Paddle sandbox: adjustments', () => {
  it('refunds part of a line item, lists it by transaction, and emits created then updated', async () => {
    const transaction = await completedTransaction();
    const [yearly] = transaction.details!.lineItems;
    const created = await paddle.adjustments.create({
      action: 'refund',
      type: 'partial',
      transactionId: transaction.id,
      reason: 'a.io: refused by the registrar',
      items: [{ itemId: yearly!.id, type: 'partial', amount: '1000' }],
    });
    expect(created).toMatchObject({
      action: 'refund',
      transactionId: transaction.id,
      subscriptionId: transaction.subscriptionId,
      status: 'pending_approval',
      reason: 'a.io: refused by the registrar',
    });
    expect(created.id).toMatch(/^adj_/);
    expect(created.items.map((item) => [item.itemId, item.amount])).toEqual([[yearly!.id, '1000']]);
    expect(created.totals?.total).toBe('1000');

    const listed = await paddle.adjustments
      .list({ transactionId: [transaction.id], action: 'refund' })
      .next();
    expect(listed.map((adjustment) => [adjustment.id, adjustment.status])).toEqual([
      [created.id, 'approved'],
    ]);
    expect(await paddle.adjustments.list({ transactionId: ['txn_other'] }).next()).toEqual([]);

    const events = sandbox.world.events.filter(
      (event) => (event.data as { id?: string }).id === created.id,
    );
    expect(
      events.map((event) => [event.event_type, (event.data as { status: string }).status]),
    ).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'approved'],
    ]);
  });

  it('refuses an over-refund with Paddle’s error, counting earlier adjustments', async () => {
    const transaction = await completedTransaction();
    const [yearly, extra] = transaction.details!.lineItems;
    await paddle.adjustments.create({
      action: 'refund',
      transactionId: transaction.id,
      reason: 'first',
      items: [{ itemId: yearly!.id, type: 'partial', amount: '4000' }],
    });
    const refused = await paddle.adjustments
      .create({
        action: 'refund',
        transactionId: transaction.id,
        reason: 'too much',
        items: [
          { itemId: yearly!.id, type: 'partial', amount: '500' },
          { itemId: extra!.id, type: 'partial', amount: '4499' },
        ],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('adjustment_transaction_item_invalid');
    expect((refused as ApiError).errors).toEqual([
      {
        field: 'adjustment.transaction.items[0]',
        message: `adjustment amount for item ${yearly!.id} is over remaining allowed 499`,
      },
    ]);
    // Nothing was recorded by the refused request: the rest can still be refunded.
    const rest = await paddle.adjustments.create({
      action: 'refund',
      transactionId: transaction.id,
      reason: 'the rest',
      items: [
        { itemId: yearly!.id, type: 'partial', amount: '499' },
        { itemId: extra!.id, type: 'full', amount: null },
      ],
    });
    expect(rest.totals?.total).toBe('4998');
  });

  it('refunds completed transactions only', async () => {
    const customer = await paddle.customers.create({
      email: `adj-${crypto.randomUUID().slice(0, 8)}@example.test`,
    });
    const open = await paddle.transactions.create({
      customerId: customer.id,
      items: [
        {
          quantity: 1,
          price: {
            description: 'x',
            name: 'x',
            unitPrice: { amount: '100', currencyCode: 'USD' },
            product: { name: 'x', taxCategory: 'standard' },
          },
        },
      ],
    });
    const refused = await paddle.adjustments
      .create({ action: 'refund', type: 'full', transactionId: open.id, reason: 'x' })
      .catch((error: unknown) => error);
    expect((refused as ApiError).code).toBe('adjustment_transaction_invalid_status_for_refund');
  });
});
