import { paddleId } from './ids.ts';
import { invalidField, notFound, PaddleError, type FieldError } from './errors.ts';
import type { PaddleWorld } from './world.ts';

type Json = Record<string, unknown>;

interface AdjustmentTotals {
  subtotal: string;
  tax: string;
  total: string;
  fee: string;
  earnings: string;
  retained_fee: string;
  currency_code: string;
}

/** An adjustment as Paddle Billing answers it (api-reference/adjustments). */
export interface Adjustment extends Json {
  id: string;
  action: 'refund' | 'credit';
  type: 'full' | 'partial';
  transaction_id: string;
  subscription_id: string | null;
  customer_id: string;
  reason: string;
  credit_applied_to_balance: boolean;
  currency_code: string;
  status: 'pending_approval' | 'approved' | 'rejected' | 'reversed';
  items: {
    id: string;
    item_id: string;
    type: 'full' | 'partial';
    amount: string;
    proration: null;
    totals: { subtotal: string; tax: string; total: string };
  }[];
  totals: AdjustmentTotals;
  payout_totals: null;
  created_at: string;
  updated_at: string;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const adjustmentsError = (code: string, detail: string, errors?: FieldError[]) =>
  new PaddleError(400, code, detail, errors, 'request_error', 'adjustments');

/**
 * POST /adjustments and GET /adjustments: refunds (and credits) of a transaction's line items,
 * as Paddle Billing takes them. Refunds are for `completed` transactions; each line item can be
 * adjusted up to its total, less what earlier adjustments (not rejected) took, else Paddle's
 * `adjustment_transaction_item_invalid` with one entry per item. A new refund is
 * `pending_approval` (that is what the answer and `adjustment.created` carry) and, while it is,
 * Paddle takes no other adjustment of that transaction (`adjustment_pending_refund_request`).
 * Paddle approves it later (every ten minutes in its sandbox): here after `approvalDelayMs`, or
 * when a test decides (decide, the sandbox's control), each announced by `adjustment.updated`.
 * A credit needs no approval: it is created approved.
 */
export class PaddleAdjustments {
  readonly adjustments: Adjustment[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /** approvalDelayMs: null leaves refunds pending until decide() is called. */
  constructor(
    private readonly world: PaddleWorld,
    private readonly approvalDelayMs: number | null = 0,
  ) {}

  /** Paddle's review of a pending refund: approved or rejected, announced once. */
  decide(id: string, status: 'approved' | 'rejected'): Adjustment {
    const adjustment = this.adjustments.find((candidate) => candidate.id === id);
    if (!adjustment) throw notFound(id);
    if (adjustment.status !== 'pending_approval')
      throw adjustmentsError(
        'adjustment_invalid_status',
        `adjustment ${id} is ${adjustment.status}, not pending_approval`,
      );
    adjustment.status = status;
    adjustment.updated_at = this.world.stamp();
    this.world.emit('adjustment.updated', adjustment, adjustment.updated_at);
    return structuredClone(adjustment);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  create(body: Json): Adjustment {
    const action = body.action;
    if (action !== 'refund' && action !== 'credit')
      throw invalidField('action', 'must be refund or credit');
    const reason = body.reason;
    if (typeof reason !== 'string' || reason.trim() === '')
      throw invalidField('reason', 'must not be empty');
    if (typeof body.transaction_id !== 'string')
      throw invalidField('transaction_id', 'is required');
    const transaction = this.world.transaction(body.transaction_id);
    const type = body.type ?? 'partial';
    if (type !== 'full' && type !== 'partial')
      throw invalidField('type', 'must be full or partial');
    if (
      this.adjustments.some(
        (earlier) =>
          earlier.transaction_id === transaction.id && earlier.status === 'pending_approval',
      )
    )
      throw adjustmentsError(
        'adjustment_pending_refund_request',
        'You are unable to create further adjustments against this transaction as there is a pending refund request',
      );
    if (action === 'refund' && transaction.status !== 'completed')
      throw adjustmentsError(
        'adjustment_transaction_invalid_status_for_refund',
        `transaction ${transaction.id} must be completed to be refunded`,
      );
    const lines = transaction.details.line_items;
    const left = new Map(
      lines.map((line) => [
        line.id,
        Number(line.totals.total) - this.adjusted(transaction.id, line.id),
      ]),
    );
    const requested: { item_id: string; type: 'full' | 'partial'; amount: number }[] =
      type === 'full'
        ? lines
            .filter((line) => left.get(line.id)! > 0)
            .map((line) => ({ item_id: line.id, type: 'full', amount: left.get(line.id)! }))
        : this.itemsOf(body.items, left);
    if (requested.length === 0)
      throw adjustmentsError(
        'adjustment_total_amount_above_remaining_allowed',
        `The adjustment amount exceeds the total amount left to adjust. Amount to Adjust: 0, Amount Left: 0`,
      );
    const at = this.world.stamp();
    const total = requested.reduce((sum, item) => sum + item.amount, 0);
    const money = (amount: number) => ({
      subtotal: String(amount),
      tax: '0',
      total: String(amount),
    });
    const adjustment: Adjustment = {
      id: paddleId('adj', this.world.nowMs()),
      action,
      type,
      transaction_id: transaction.id,
      subscription_id: transaction.subscription_id,
      customer_id: transaction.customer_id ?? '',
      reason,
      credit_applied_to_balance: false,
      currency_code: transaction.currency_code,
      status: action === 'refund' ? 'pending_approval' : 'approved',
      items: requested.map((item) => ({
        id: paddleId('adjitm', this.world.nowMs()),
        item_id: item.item_id,
        type: item.type,
        amount: String(item.amount),
        proration: null,
        totals: money(item.amount),
      })),
      totals: {
        ...money(total),
        fee: '0',
        earnings: String(total),
        retained_fee: '0',
        currency_code: transaction.currency_code,
      },
      payout_totals: null,
      created_at: at,
      updated_at: at,
    };
    this.adjustments.push(adjustment);
    this.world.emit('adjustment.created', adjustment, at);
    if (adjustment.status === 'pending_approval' && this.approvalDelayMs !== null) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (adjustment.status === 'pending_approval') this.decide(adjustment.id, 'approved');
      }, this.approvalDelayMs);
      timer.unref?.();
      this.timers.add(timer);
    }
    return structuredClone(adjustment);
  }

  /** Whether a refund of one of the subscription's transactions waits for Paddle's review. */
  hasPendingRefund(subscriptionId: string): boolean {
    return this.adjustments.some(
      (adjustment) =>
        adjustment.subscription_id === subscriptionId &&
        adjustment.action === 'refund' &&
        adjustment.status === 'pending_approval',
    );
  }

  /** GET /adjustments: oldest first, filtered as Paddle's list is (comma-separated ids). */
  list(query: URLSearchParams): Adjustment[] {
    const ids = (name: string) => query.get(name)?.split(',').filter(Boolean) ?? null;
    const transactions = ids('transaction_id');
    const subscriptions = ids('subscription_id');
    const statuses = ids('status');
    const action = query.get('action');
    return this.adjustments.filter(
      (adjustment) =>
        (!transactions || transactions.includes(adjustment.transaction_id)) &&
        (!subscriptions || subscriptions.includes(adjustment.subscription_id ?? '')) &&
        (!statuses || statuses.includes(adjustment.status)) &&
        (!action || adjustment.action === action),
    );
  }

  private adjusted(transactionId: string, itemId: string): number {
    return this.adjustments
      .filter((adjustment) => adjustment.transaction_id === transactionId)
      .filter((adjustment) => adjustment.status !== 'rejected')
      .flatMap((adjustment) => adjustment.items)
      .filter((item) => item.item_id === itemId)
      .reduce((sum, item) => sum + Number(item.amount), 0);
  }

  private itemsOf(raw: unknown, left: Map<string, number>) {
    if (!Array.isArray(raw) || raw.length === 0)
      throw invalidField('items', 'must contain at least one item for a partial adjustment');
    const errors: FieldError[] = [];
    const items = raw.map((item: unknown, index: number) => {
      const path = `items[${index}]`;
      if (!isObject(item)) throw invalidField(path, 'must be an object');
      const itemId = item.item_id;
      if (typeof itemId !== 'string' || !left.has(itemId))
        throw invalidField(`${path}.item_id`, 'must be a line item of the transaction');
      const remaining = left.get(itemId)!;
      const full = item.type === 'full';
      if (!full && item.type !== 'partial')
        throw invalidField(`${path}.type`, 'must be full or partial');
      const amount = full ? remaining : Number(item.amount);
      if (!full && (typeof item.amount !== 'string' || !/^\d+$/.test(item.amount)))
        throw invalidField(`${path}.amount`, 'must be a string of digits (minor units)');
      const field = `adjustment.transaction.items[${index}]`;
      if (remaining <= 0)
        errors.push({
          field,
          message: `Adjustment item ${itemId} has already been fully adjusted`,
        });
      else if (amount === 0)
        errors.push({
          field,
          message: `You are attempting to make an adjustment with zero amount on a transaction item. ID ${itemId}`,
        });
      else if (amount > remaining)
        errors.push({
          field,
          message: `adjustment amount for item ${itemId} is over remaining allowed ${remaining}`,
        });
      left.set(itemId, remaining - amount);
      return { item_id: itemId, type: (full ? 'full' : 'partial') as 'full' | 'partial', amount };
    });
    if (errors.length > 0)
      throw adjustmentsError(
        'adjustment_transaction_item_invalid',
        'One or more adjustment items cannot be processed',
        errors,
      );
    return items;
  }
}
