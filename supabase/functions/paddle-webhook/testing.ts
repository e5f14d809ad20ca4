import assert from 'node:assert/strict';
import { createClient } from '@supabase/supabase-js';
import { overlayBillingFromEnv } from '../_shared/billing/paddle.ts';
import { sql } from '../_shared/sql.ts';
import { hmacSha256Hex, type StackEnv } from '../_shared/testing.ts';
import { createPaddleWebhookHandler } from './handler.ts';

/** A notification as the stack's Paddle sandbox made and sent it. */
export interface PaddleNotification {
  event_id: string;
  event_type: string;
  occurred_at: string;
  notification_id: string;
  data: { id: string; [key: string]: unknown };
}

/**
 * The paddle-webhook handler called directly, and the sandbox's notifications to replay through
 * it signed as Paddle signs them (`ts=…;h1=…` over `ts:body`).
 */
export function paddleReplay(env: StackEnv) {
  const webhook = createPaddleWebhookHandler();

  /** Signed with the stack's secret now, unless a test forges or backdates it. */
  async function deliver(
    event: unknown,
    { secret = env.PADDLE_WEBHOOK_SECRET!, at = Math.floor(Date.now() / 1000) } = {},
  ) {
    const body = JSON.stringify(event);
    const signature = `ts=${at};h1=${await hmacSha256Hex(secret, `${at}:${body}`)}`;
    const response = await webhook(
      new Request('http://localhost/paddle-webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'paddle-signature': signature },
        body,
      }),
    );
    return {
      status: response.status,
      body: (await response.json()) as { result?: string; code?: string },
    };
  }

  /** Every notification the sandbox made about one of these ids, oldest first. */
  async function eventsAbout(ids: string[]): Promise<PaddleNotification[]> {
    const events: PaddleNotification[] = [];
    let after = '';
    for (;;) {
      const response = await fetch(
        `${env.PADDLE_API_BASE}/events?per_page=200${after ? `&after=${after}` : ''}`,
        { headers: { authorization: `Bearer ${env.PADDLE_API_KEY}` } },
      );
      const page = (await response.json()) as {
        data: PaddleNotification[];
        meta: { pagination: { has_more: boolean } };
      };
      events.push(...page.data);
      if (!page.meta.pagination.has_more || page.data.length === 0) break;
      after = page.data.at(-1)!.event_id;
    }
    return events.filter((event) => ids.some((id) => JSON.stringify(event.data).includes(id)));
  }

  /** Paddle's review of a pending refund, through the sandbox's control. */
  async function decideRefund(adjustmentId: string, decision: 'approve' | 'reject') {
    const response = await fetch(
      `${env.PADDLE_API_BASE}/_sandbox/adjustments/${adjustmentId}/${decision}`,
      { method: 'POST', headers: { authorization: `Bearer ${env.PADDLE_API_KEY}` } },
    );
    if (!response.ok) throw new Error(`${decision} ${adjustmentId}: ${await response.text()}`);
    await response.body?.cancel();
  }

  return { deliver, eventsAbout, decideRefund };
}

/**
 * A customer who paid a Paddle Pro checkout (yearly, no trial) in the sandbox's overlay frame:
 * the stack's own notifications then record the subscription and its paid transaction.
 */
export async function paddleSubscriber(env: StackEnv) {
  const db = sql();
  const paddle = overlayBillingFromEnv();
  const email = `kiosk-paddle-${crypto.randomUUID().slice(0, 8)}@functions.test`;
  const admin = createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const created = await admin.auth.admin.createUser({
    email,
    password: `Pw-${crypto.randomUUID()}`,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const [user] = await db<{ account: string }[]>`
    select personal_account_id as account from public.profiles where id = ${created.data.user.id}`;
  assert.ok(user);
  const [price] = await db<{ id: string }[]>`
    select pp.id::text from public.plan_prices pp join public.plans p on p.id = pp.plan_id
    where p.name = 'pro' and pp.interval = 'yearly' and pp.currency = 'USD'`;
  const customer = await paddle.createCustomer({
    email,
    customData: { account_id: user.account },
  });
  const transaction = await paddle.createCheckout({
    customerId: customer.id,
    unitAmount: 12900,
    currency: 'USD',
    interval: 'year',
    productName: 'Shortlane Pro',
    priceName: 'Shortlane Pro (yearly)',
    trialDays: 0,
    checkoutUrl: 'http://localhost:45173/paddle/payment',
    customData: { account_id: user.account, plan_price_id: price!.id },
  });
  const paid = await fetch(`${env.PADDLE_API_BASE}/checkout/${transaction.id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: env.PADDLE_CLIENT_TOKEN!,
      parent_origin: 'http://localhost:45173',
      email,
      country: 'US',
      postcode: '10001',
      cardNumber: '4242 4242 4242 4242',
      cardholder: 'Kiosk Test',
      expiry: '12/34',
      cvc: '123',
    }),
  });
  assert.match(await paid.text(), /checkout\.completed/);
  const subscriptionId = (await paddle.retrieveTransaction(transaction.id)).subscriptionId!;
  return { db, paddle, account: user.account, transactionId: transaction.id, subscriptionId };
}
