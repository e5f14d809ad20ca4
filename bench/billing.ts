/**
 * Billing benchmark (billing type 1, Stripe sandbox), in a fresh stack of its own:
 *
 * - webhook deliveries: 1,000 signed deliveries through the gateway to stripe-webhook (half of
 *   them a second delivery of an event already taken, as Stripe's retries and replays are),
 *   each verified on the raw body, stored once and applied from the subscription's current state
 *   at the sandbox; prints p50, p99 and max latency, the throughput, and how many duplicates were
 *   answered `duplicate` without a second effect;
 * - checkout creation: POST billing/new-subscription (customer + Checkout Session at the
 *   sandbox), p50 and p99.
 *
 * With the load average beside the figures: the machine is shared, compare runs side by side.
 *
 *   npm run bench:billing
 *   BENCH_BILLING_DELIVERIES=2000 BENCH_BILLING_CONCURRENCY=8 npm run bench:billing
 *
 * Ports 28421/28422/28424 and state dir .local/bench-billing (override with STACK_* variables).
 */
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import Stripe from 'stripe';
import { signToken } from '../supabase/local/src/jwt.ts';
import { loadConfig, REPO_ROOT } from '../supabase/local/src/config.ts';
import { startStack } from '../supabase/local/src/stack.ts';

const DELIVERIES = Number(process.env.BENCH_BILLING_DELIVERIES ?? '1000');
const CONCURRENCY = Number(process.env.BENCH_BILLING_CONCURRENCY ?? '4');
const CHECKOUTS = Number(process.env.BENCH_BILLING_CHECKOUTS ?? '50');
if (!Number.isInteger(DELIVERIES) || DELIVERIES < 2 || DELIVERIES % 2 !== 0)
  throw new Error('BENCH_BILLING_DELIVERIES must be an even count of at least 2');

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function summary(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} samples)`;
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function main() {
  process.env.STACK_GATEWAY_PORT ??= '28421';
  process.env.STACK_DB_PORT ??= '28422';
  process.env.STACK_MAIL_PORT ??= '28424';
  process.env.STACK_WATCH_FUNCTIONS = 'false';
  const config = loadConfig({
    stateDir: path.resolve(REPO_ROOT, process.env.STACK_STATE_DIR ?? '.local/bench-billing'),
  });
  fs.rmSync(config.stateDir, { recursive: true, force: true });

  log('starting a fresh stack…');
  const stack = await startStack(config, () => {});
  const env = stack.env;
  const db = new pg.Pool({ connectionString: env.DB_URL, max: 2 });
  const base = new URL(env.STRIPE_API_BASE);
  const stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    host: base.hostname,
    port: Number(base.port),
    protocol: 'http',
    httpClient: Stripe.createFetchHttpClient((input, init) => {
      const url = new URL(String(input));
      url.pathname = `${base.pathname}${url.pathname}`;
      return fetch(url, init);
    }),
  });
  try {
    // A subscriber: the free demo user, subscribed to Pro yearly through the hosted checkout.
    const userId = '00000000-0000-4000-8000-000000000101';
    const {
      rows: [account],
    } = await db.query<{ account: string; price: string }>(
      `select p.personal_account_id as account, pp.id as price
       from public.profiles p, public.plan_prices pp join public.plans pl on pl.id = pp.plan_id
       where p.id = $1 and pl.name = 'pro' and pp.interval = 'yearly' and pp.currency = 'USD'
         and pp.active`,
      [userId],
    );
    const metadata = { account_id: account!.account, plan_price_id: account!.price };
    const customer = await stripe.customers.create({ metadata });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'usd',
            unit_amount: 12900,
            recurring: { interval: 'year' },
            product_data: { name: 'Pro' },
          },
        },
      ],
      success_url: 'http://localhost/done',
      metadata,
      subscription_data: { metadata },
    });
    const paid = await fetch(session.url!, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        cardNumber: '4242424242424242',
        cardExpiry: '12/34',
        cardCvc: '123',
      }),
    });
    await paid.body?.cancel();
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id))
      .subscription as string;
    const template = (await stripe.events.list({ type: 'customer.subscription.created' })).data[0]!;

    // Distinct events about that subscription (as a stream of updates would be), each sent twice.
    const unique = DELIVERIES / 2;
    const now = Math.floor(Date.now() / 1000);
    const events = Array.from({ length: unique }, (_, index) => ({
      ...template,
      id: `evt_bench_${randomUUID().replaceAll('-', '')}`,
      type: 'customer.subscription.updated',
      created: now + index,
    }));
    const deliveries = [...events, ...events];
    const url = `${env.SUPABASE_URL}/functions/v1/stripe-webhook`;
    const latencies: number[] = [];
    const results = new Map<string, number>();
    log(
      `webhooks: ${DELIVERIES} deliveries (${unique} events, each twice), ${CONCURRENCY} at a time; load ${load()}`,
    );
    const started = performance.now();
    await pool(deliveries, CONCURRENCY, async (event) => {
      const body = JSON.stringify(event);
      const t = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', env.STRIPE_WEBHOOK_SECRET)
        .update(`${t}.${body}`)
        .digest('hex');
      const sent = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': `t=${t},v1=${signature}`,
        },
        body,
      });
      const answer = (await response.json()) as { result?: string; code?: string };
      latencies.push(performance.now() - sent);
      const key = response.ok ? (answer.result ?? '?') : `HTTP ${response.status} ${answer.code}`;
      results.set(key, (results.get(key) ?? 0) + 1);
    });
    const seconds = (performance.now() - started) / 1000;
    const {
      rows: [stored],
    } = await db.query<{ events: number; subscriptions: number }>(
      `select (select count(*)::int from public.webhook_events where event_id like 'evt_bench_%') as events,
              (select count(*)::int from public.subscriptions where billing_id = $1) as subscriptions`,
      [subscriptionId],
    );
    console.log(summary('  webhook delivery', latencies));
    console.log(
      `  throughput: ${(DELIVERIES / seconds).toFixed(1)} deliveries/s over ${seconds.toFixed(1)} s`,
    );
    console.log(
      `  answers: ${[...results].map(([key, count]) => `${key} ${count}`).join(', ')}; duplicates rejected: ${results.get('duplicate') ?? 0} of ${unique}`,
    );
    console.log(
      `  stored: ${stored!.events} events once each, ${stored!.subscriptions} subscription row; load ${load()}`,
    );

    // Checkout creation through the billing function, as the pricing page asks for it.
    const {
      rows: [buyer],
    } = await db.query<{ id: string }>(
      `select id from public.profiles where email = 'trial@shortlane.test'`,
    );
    const token = await signToken(env.SUPABASE_JWT_SECRET, {
      sub: buyer!.id,
      role: 'authenticated',
      aud: 'authenticated',
      aal: 'aal1',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    await db.query(
      `delete from public.subscriptions where account_id =
      (select personal_account_id from public.profiles where id = $1)`,
      [buyer!.id],
    );
    const checkouts: number[] = [];
    const refused = new Map<number, number>();
    log(`checkout creation: ${CHECKOUTS} in a row; load ${load()}`);
    for (let i = 0; i < CHECKOUTS; i++) {
      const sent = performance.now();
      const response = await fetch(`${env.SUPABASE_URL}/functions/v1/billing/new-subscription`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          apikey: env.SUPABASE_ANON_KEY,
          origin: 'http://localhost:5173',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          billing_type: 1,
          subscription: 'pro',
          interval: 'yearly',
          currency: 'USD',
          type: 'default',
          trial: false,
        }),
      });
      await response.body?.cancel();
      if (response.ok) checkouts.push(performance.now() - sent);
      else refused.set(response.status, (refused.get(response.status) ?? 0) + 1);
    }
    console.log(summary('  checkout creation', checkouts));
    if (refused.size > 0)
      console.log(`  refused: ${[...refused].map(([s, n]) => `${s} ×${n}`).join(', ')}`);
    console.log(`  load average (1/5/15 min): ${load()} on ${os.cpus().length} cores`);
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
