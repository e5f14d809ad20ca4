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
  // Refunds wait for the test's decision (the sandbox's control), as Paddle's review.
  sandbox = createPaddleSandbox({ publicUrl: holder.origin, refundApprovalMs: null });
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

async function control(path: string) {
  const response = await sandbox.handler(
    new Request(`http://sandbox.test/_sandbox/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_PADDLE_API_KEY}` },
    }),
  );
  return { status: response.status, body: (await response.json()) as { data?: unknown } };
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

    const listed = async () =>
      (
        await paddle.adjustments.list({ transactionId: [transaction.id], action: 'refund' }).next()
      ).map((adjustment) => [adjustment.id, adjustment.status]);
    expect(await listed()).toEqual([[created.id, 'pending_approval']]);
    // While it is pending Paddle takes no other adjustment of the transaction.
    const refused = await paddle.adjustments
      .create({ action: 'refund', type: 'full', transactionId: transaction.id, reason: 'more' })
      .catch((error: unknown) => error);
    expect((refused as ApiError).code).toBe('adjustment_pending_refund_request');

    const approved = await control(`adjustments/${created.id}/approve`);
    expect(approved).toMatchObject({ status: 200 });
    expect(await listed()).toEqual([[created.id, 'approved']]);
    // Decided once: a second decision is refused.
    expect(await control(`adjustments/${created.id}/reject`)).toMatchObject({ status: 400 });
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

  it('refuses a prorated plan change of the subscription while a refund waits for review', async () => {
    const transaction = await completedTransaction();
    const subscriptionId = transaction.subscriptionId!;
    const pending = await paddle.adjustments.create({
      action: 'refund',
      type: 'full',
      transactionId: transaction.id,
      reason: 'customer asked',
    });
    const change = (amount: string) =>
      paddle.subscriptions.update(subscriptionId, {
        prorationBillingMode: 'prorated_immediately',
        items: [
          {
            quantity: 1,
            price: {
              description: `Domains ${amount}`,
              name: `Domains ${amount}`,
              unitPrice: { amount, currencyCode: 'USD' },
              billingCycle: { interval: 'year', frequency: 1 },
              product: { name: 'Domains', taxCategory: 'standard' },
            },
          },
        ],
      });
    // The unused time's credit would be an adjustment, which Paddle takes none of meanwhile.
    const refused = await change('8999').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('subscription_outstanding_pending_refund');
    const unchanged = await paddle.subscriptions.get(subscriptionId);
    expect(unchanged.items.map((item) => item.price.unitPrice.amount)).toEqual(['4499']);

    expect(await control(`adjustments/${pending.id}/reject`)).toMatchObject({ status: 200 });
    const changed = await change('8999');
    expect(changed.items.map((item) => item.price.unitPrice.amount)).toEqual(['8999']);
  });

  it('refuses an over-refund with Paddle’s error, counting earlier adjustments', async () => {
    const transaction = await completedTransaction();
    const [yearly, extra] = transaction.details!.lineItems;
    await paddle.adjustments
      .create({
        action: 'refund',
        transactionId: transaction.id,
        reason: 'first',
        items: [{ itemId: yearly!.id, type: 'partial', amount: '4000' }],
      })
      .then((first) => control(`adjustments/${first.id}/approve`));
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

  it('a rejected refund gives nothing back and frees the amount; a delay approves on its own', async () => {
    const transaction = await completedTransaction();
    const rejected = await paddle.adjustments.create({
      action: 'refund',
      type: 'full',
      transactionId: transaction.id,
      reason: 'rejected',
    });
    expect(rejected.totals?.total).toBe('8998');
    expect(await control(`adjustments/${rejected.id}/reject`)).toMatchObject({ status: 200 });
    const events = sandbox.world.events
      .filter((event) => (event.data as { id?: string }).id === rejected.id)
      .map((event) => [event.event_type, (event.data as { status: string }).status]);
    expect(events).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'rejected'],
    ]);

    const timed = createPaddleSandbox({ publicUrl: 'http://timed.test', refundApprovalMs: 20 });
    try {
      const world = timed.world;
      const customer = world.createCustomer({ email: 'timed@example.test' });
      const open = world.createTransaction(
        {
          customer_id: customer.id,
          items: [
            {
              quantity: 1,
              price: {
                description: 'x',
                name: 'x',
                unit_price: { amount: '700', currency_code: 'USD' },
                product: { name: 'x', tax_category: 'standard' },
              },
            },
          ],
        },
        null,
      );
      world.completeCheckout(
        open.id,
        { email: 'timed@example.test', countryCode: 'US', postalCode: '10001' },
        { number: '4242424242424242', expMonth: 12, expYear: 2040, cardholderName: 'Pat' },
      );
      const pending = timed.adjustments.create({
        action: 'refund',
        type: 'full',
        transaction_id: open.id,
        reason: 'timed',
      });
      expect(pending.status).toBe('pending_approval');
      await expect
        .poll(() => timed.adjustments.adjustments.find((a) => a.id === pending.id)?.status)
        .toBe('approved');
    } finally {
      await timed.stop();
    }
  });
});
